#!/usr/bin/env bash
# Brings translations/*.ts up to date with the tr() strings in the sources (new strings are
# added as unfinished, removed ones marked vanished); then translate them in Qt Linguist
# (`linguist translations/bagscope_ja_JP.ts`). The `translations` test fails while any
# string is untranslated. English only needs its plural forms.
set -euo pipefail
cd "$(dirname "$0")/.."
lupdate=/usr/lib/qt6/bin/lupdate
sources=(widgets app/gui core/export/format_options.cpp)
for lang in zh_CN ja_JP; do
  "$lupdate" -silent -locations none -no-obsolete -I . -target-language "$lang" "${sources[@]}" -ts "translations/bagscope_$lang.ts"
done
"$lupdate" -silent -locations none -no-obsolete -pluralonly -I . -target-language en "${sources[@]}" -ts translations/bagscope_en.ts
