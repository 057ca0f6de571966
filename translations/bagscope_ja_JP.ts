<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name>Application</name>
    <message>
        <source>Unexpected error</source>
        <translation>予期しないエラー</translation>
    </message>
    <message>
        <source>Bagscope caught an error it did not expect and keeps running. What it was doing may be incomplete.</source>
        <translation>Bagscope は予期しないエラーを捕捉しましたが、動作を続けます。実行中だった処理は不完全な可能性があります。</translation>
    </message>
</context>
<context>
    <name>Bagscope</name>
    <message>
        <source> (not replaced unless &quot;Replace existing files&quot; is chosen)</source>
        <translation>（「既存のファイルを置き換える」を選ばない限り置き換えません）</translation>
    </message>
</context>
<context>
    <name>ExportOption</name>
    <message>
        <source>binary</source>
        <translation>バイナリ (binary)</translation>
    </message>
    <message>
        <source>binary_compressed</source>
        <translation>圧縮バイナリ (binary_compressed)</translation>
    </message>
    <message>
        <source>ascii</source>
        <translation>テキスト (ascii)</translation>
    </message>
    <message>
        <source>log time and header stamp</source>
        <translation>記録時刻と header スタンプ</translation>
    </message>
    <message>
        <source>log time</source>
        <translation>記録時刻</translation>
    </message>
    <message>
        <source>header stamp</source>
        <translation>header スタンプ</translation>
    </message>
    <message>
        <source>PLY as text (ascii) instead of binary</source>
        <translation>PLY をバイナリではなくテキスト（ascii）で書き出す</translation>
    </message>
    <message>
        <source>PCD encoding:</source>
        <translation>PCD エンコーディング:</translation>
    </message>
    <message>
        <source>Fields:</source>
        <translation>フィールド:</translation>
    </message>
    <message>
        <source>all fields, e.g. x,y,z,intensity=reflectance</source>
        <translation>すべてのフィールド（例: x,y,z,intensity=reflectance）</translation>
    </message>
    <message>
        <source>fields %1 only</source>
        <translation>フィールド %1 のみ</translation>
    </message>
    <message>
        <source>Leave out points without x, y, z (NaN)</source>
        <translation>x、y、z のない点（NaN）を除く</translation>
    </message>
    <message>
        <source>points without x, y, z left out</source>
        <translation>x, y, z のない点を除外</translation>
    </message>
    <message>
        <source>Intensity divided by the cloud&apos;s maximum (0–1)</source>
        <translation>強度を点群の最大値で割る（0–1）</translation>
    </message>
    <message>
        <source>intensity normalised</source>
        <translation>強度を正規化</translation>
    </message>
    <message>
        <source>Target frame:</source>
        <translation>変換先フレーム:</translation>
    </message>
    <message>
        <source>moved into frame %1</source>
        <translation>フレーム %1 に変換</translation>
    </message>
    <message>
        <source>Axes (new x, y, z):</source>
        <translation>軸（新しい x, y, z）：</translation>
    </message>
    <message>
        <source>x,y,z (as recorded)</source>
        <translation>x,y,z（記録のまま）</translation>
    </message>
    <message>
        <source>axes %1</source>
        <translation>軸 %1</translation>
    </message>
    <message>
        <source>JPEG quality:</source>
        <translation>JPEG 品質:</translation>
    </message>
    <message>
        <source>Video frame rate:</source>
        <translation>動画のフレームレート:</translation>
    </message>
    <message>
        <source>the topic&apos;s rate</source>
        <translation>トピックのレート</translation>
    </message>
    <message>
        <source>video at %1 fps</source>
        <translation>動画 %1 fps</translation>
    </message>
    <message>
        <source>Time columns:</source>
        <translation>時刻の列:</translation>
    </message>
    <message>
        <source>Times in seconds (else nanoseconds)</source>
        <translation>時刻を秒で表す（それ以外はナノ秒）</translation>
    </message>
    <message>
        <source>Array columns at most:</source>
        <translation>配列の列数の上限:</translation>
    </message>
    <message>
        <source>PLY (and PCD) as text instead of binary</source>
        <translation>PLY（および PCD）をバイナリではなくテキストで書き出す</translation>
    </message>
    <message>
        <source>how PCD stores points</source>
        <translation>PCD の点の格納方法</translation>
    </message>
    <message>
        <source>the fields to write, in order; name=newname renames (PLY, PCD and NumPy field names)</source>
        <translation>書き出すフィールド（順番どおり）。name=newname で名前を変更（PLY、PCD、NumPy のフィールド名）</translation>
    </message>
    <message>
        <source>leave out points without x, y, z (NaN); always for bin and las</source>
        <translation>x, y, z のない点（NaN）を除く。bin と las では常に除く</translation>
    </message>
    <message>
        <source>intensity divided by the cloud&apos;s maximum (0-1)</source>
        <translation>強度を点群の最大値で割る（0–1）</translation>
    </message>
    <message>
        <source>move clouds into this frame (from /tf and /tf_static) at their stamp; empty: as recorded</source>
        <translation>タイムスタンプ時点でこのフレームへ点群を移す（/tf と /tf_static から）。空欄：記録のまま</translation>
    </message>
    <message>
        <source>axes remapped after the target frame: z,-y,x makes new x = old z, new y = -old y, new z = old x</source>
        <translation>目標フレームの後で軸を入れ替える：z,-y,x は新 x = 旧 z、新 y = −旧 y、新 z = 旧 x</translation>
    </message>
    <message>
        <source>JPEG quality (default 95)</source>
        <translation>JPEG 品質（既定値 95）</translation>
    </message>
    <message>
        <source>video frames per second (default: the topic&apos;s rate)</source>
        <translation>動画の毎秒フレーム数（既定：トピックのレート）</translation>
    </message>
    <message>
        <source>the time columns</source>
        <translation>時刻の列</translation>
    </message>
    <message>
        <source>times in seconds (else nanoseconds)</source>
        <translation>時刻を秒で（そうでなければナノ秒）</translation>
    </message>
    <message>
        <source>variable-length arrays: at most this many columns (default 16)</source>
        <translation>可変長配列：最大この列数まで（既定値 16）</translation>
    </message>
    <message>
        <source>H.264 (plays everywhere)</source>
        <translation>H.264（どこでも再生可能）</translation>
    </message>
    <message>
        <source>MPEG-4 Part 2 (mp4v)</source>
        <translation>MPEG-4 Part 2 (mp4v)</translation>
    </message>
    <message>
        <source>the MP4&apos;s video codec: h264 (default) or mp4v</source>
        <translation>MP4 の映像コーデック：h264（既定）または mp4v</translation>
    </message>
    <message>
        <source>Video codec:</source>
        <translation>映像コーデック：</translation>
    </message>
    <message>
        <source>H.264 quality: constant rate factor, 0 (lossless) to 51 (default 23)</source>
        <translation>H.264 画質：固定品質係数、0（ロスレス）〜51（既定 23）</translation>
    </message>
    <message>
        <source>H.264 quality (CRF):</source>
        <translation>H.264 画質 (CRF)：</translation>
    </message>
    <message>
        <source>H.264 speed against size: ultrafast … veryslow (default medium)</source>
        <translation>H.264 の速度とサイズ：ultrafast … veryslow（既定 medium）</translation>
    </message>
    <message>
        <source>H.264 preset:</source>
        <translation>H.264 プリセット：</translation>
    </message>
    <message>
        <source>a video topic&apos;s packets (remuxed) at their log times (default) or header stamps</source>
        <translation>動画トピックのパケット（再多重化）をログ時刻（既定）またはヘッダーのタイムスタンプで配置</translation>
    </message>
    <message>
        <source>Packet times:</source>
        <translation>パケット時刻：</translation>
    </message>
</context>
<context>
    <name>PanelType</name>
    <message>
        <source>Plot</source>
        <translation>グラフ</translation>
    </message>
    <message>
        <source>New &amp;Plot</source>
        <translation>新しいグラフ(&amp;P)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+P</source>
        <translation>Ctrl+Shift+P</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>画像</translation>
    </message>
    <message>
        <source>New &amp;Image Viewer</source>
        <translation>新しい画像ビューアー(&amp;I)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+I</source>
        <translation>Ctrl+Shift+I</translation>
    </message>
    <message>
        <source>Show in Image Viewer</source>
        <translation>画像ビューアーで表示</translation>
    </message>
    <message>
        <source>3D View</source>
        <translation>3D ビュー</translation>
    </message>
    <message>
        <source>New &amp;3D View</source>
        <translation>新しい 3D ビュー(&amp;3)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+D</source>
        <translation>Ctrl+Shift+D</translation>
    </message>
    <message>
        <source>Show in 3D View</source>
        <translation>3D ビューで表示</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>ログ</translation>
    </message>
    <message>
        <source>New &amp;Log</source>
        <translation>新しいログ(&amp;L)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+L</source>
        <translation>Ctrl+Shift+L</translation>
    </message>
    <message>
        <source>Show in Log</source>
        <translation>ログに表示</translation>
    </message>
    <message>
        <source>Diagnostics</source>
        <translation>診断</translation>
    </message>
    <message>
        <source>New Dia&amp;gnostics</source>
        <translation>新しい診断(&amp;G)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+G</source>
        <translation>Ctrl+Shift+G</translation>
    </message>
    <message>
        <source>Show in Diagnostics</source>
        <translation>診断に表示</translation>
    </message>
    <message>
        <source>TF Tree</source>
        <translation>TF ツリー</translation>
    </message>
    <message>
        <source>New &amp;TF Tree</source>
        <translation>新しい TF ツリー(&amp;T)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+T</source>
        <translation>Ctrl+Shift+T</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>メッセージ一覧</translation>
    </message>
    <message>
        <source>New &amp;Messages List</source>
        <translation>新しいメッセージ一覧(&amp;M)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+M</source>
        <translation>Ctrl+Shift+M</translation>
    </message>
    <message>
        <source>Show in Messages List</source>
        <translation>メッセージ一覧に表示</translation>
    </message>
    <message>
        <source>Map</source>
        <translation>地図</translation>
    </message>
    <message>
        <source>New Ma&amp;p (GPS)</source>
        <translation>新しい地図（GPS）(&amp;P)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+A</source>
        <translation>Ctrl+Shift+A</translation>
    </message>
    <message>
        <source>Show on Map</source>
        <translation>地図に表示</translation>
    </message>
</context>
<context>
    <name>PlotPanel</name>
    <message>
        <source>roll (rad)</source>
        <translation>ロール（ラジアン）</translation>
    </message>
    <message>
        <source>pitch (rad)</source>
        <translation>ピッチ（ラジアン）</translation>
    </message>
    <message>
        <source>yaw (rad)</source>
        <translation>ヨー（ラジアン）</translation>
    </message>
    <message>
        <source>derivative (per s)</source>
        <translation>微分（毎秒）</translation>
    </message>
    <message>
        <source>Derivative</source>
        <translation>微分</translation>
    </message>
    <message>
        <source>integral (× s)</source>
        <translation>積分（× 秒）</translation>
    </message>
    <message>
        <source>Integral</source>
        <translation>積分</translation>
    </message>
    <message>
        <source>moving average (%1)</source>
        <translation>移動平均（%1）</translation>
    </message>
    <message>
        <source>Moving Average (10 samples)</source>
        <translation>移動平均（10 サンプル）</translation>
    </message>
    <message>
        <source>Moving Average (1 s)</source>
        <translation>移動平均（1 秒）</translation>
    </message>
    <message>
        <source>moving median (%1)</source>
        <translation>移動中央値（%1）</translation>
    </message>
    <message>
        <source>Moving Median (10 samples)</source>
        <translation>移動中央値（10 サンプル）</translation>
    </message>
    <message>
        <source>low-pass filter (%1 Hz)</source>
        <translation>ローパスフィルター（%1 Hz）</translation>
    </message>
    <message>
        <source>Low-Pass Filter…</source>
        <translation>ローパスフィルター…</translation>
    </message>
    <message>
        <source>Cutoff frequency (Hz):</source>
        <translation>カットオフ周波数（Hz）:</translation>
    </message>
    <message>
        <source>absolute value</source>
        <translation>絶対値</translation>
    </message>
    <message>
        <source>Absolute Value</source>
        <translation>絶対値</translation>
    </message>
    <message>
        <source>difference</source>
        <translation>差分</translation>
    </message>
    <message>
        <source>Difference of Consecutive Samples</source>
        <translation>連続するサンプルの差</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>%1 (topic %2, message %3: %4 bytes, not decoded)</source>
        <translation>%1（トピック %2、%3 件目のメッセージ：%4 バイト、デコードされていません）</translation>
    </message>
    <message>
        <source>not a Bagscope layout</source>
        <translation>Bagscope のレイアウトファイルではありません</translation>
    </message>
    <message>
        <source>written by a newer Bagscope (layout version %1)</source>
        <translation>新しいバージョンの Bagscope で作成されています（レイアウト形式 %1）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1: not JSON (%2 at offset %3)</source>
        <translation>%1: JSON ではありません（オフセット %3: %2）</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>%1 を作成できません</translation>
    </message>
    <message numerus="yes">
        <source>%1 + %n more</source>
        <translation>
            <numerusform>%1 ほか %n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>this cloud has no x, y and z fields</source>
        <translation>この点群には x、y、z フィールドがありません</translation>
    </message>
    <message>
        <source>not transformed: %1</source>
        <translation>変換していません: %1</translation>
    </message>
    <message>
        <source>%1 (not in this recording)</source>
        <translation>%1（この記録にはありません）</translation>
    </message>
    <message>
        <source>No recording is open.</source>
        <translation>記録が開かれていません。</translation>
    </message>
    <message>
        <source>%1 is not in this recording.</source>
        <translation>%1 はこの記録にはありません。</translation>
    </message>
    <message>
        <source>0 (unset)</source>
        <translation>0（未設定）</translation>
    </message>
    <message>
        <source>%1 s (not the recording&apos;s clock)</source>
        <translation>%1 秒（記録の時計ではありません）</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
</context>
<context>
    <name>TopicJob</name>
    <message numerus="yes">
        <source>%n message(s) could not be read: %1</source>
        <translation>
            <numerusform>%n 件のメッセージを読み取れませんでした: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::AboutDialog</name>
    <message>
        <source>Opens ROS 1 and ROS 2 recordings (.bag, .mcap, rosbag2 folders) without ROS: look inside, plot, and export.</source>
        <translation>ROS なしで ROS 1 と ROS 2 の記録（.bag、.mcap、rosbag2 フォルダー）を開き、中身の確認、グラフ表示、エクスポートができます。</translation>
    </message>
    <message>
        <source>Copyright © 2026 The Bagscope developers. Free software under the GNU General Public License, version 3 or later; see Licences.</source>
        <translation>Copyright © 2026 Bagscope 開発者。GNU 一般公衆利用許諾書バージョン 3 以降に基づくフリーソフトウェアです。「ライセンス」を参照してください。</translation>
    </message>
    <message>
        <source>Copy to Clipboard</source>
        <translation>クリップボードにコピー</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>ライセンス</translation>
    </message>
    <message>
        <source>Linked from the system&apos;s copy on Linux, where its package carries the full licence text; shipped beside the program on Windows and macOS.</source>
        <translation>Linux ではシステムのコピーにリンクし、そのパッケージにライセンス全文が含まれます。Windows と macOS ではプログラムと一緒に配布されます。</translation>
    </message>
    <message>
        <source>About Bagscope</source>
        <translation>Bagscope について</translation>
    </message>
    <message>
        <source>About</source>
        <translation>概要</translation>
    </message>
    <message>
        <source>Build</source>
        <translation>ビルド</translation>
    </message>
    <message>
        <source>Licences</source>
        <translation>ライセンス</translation>
    </message>
    <message>
        <source>not available: %1</source>
        <translation>利用できません：%1</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::CloudPanel</name>
    <message>
        <source>Grid</source>
        <translation>グリッド</translation>
    </message>
    <message>
        <source>TF frames</source>
        <translation>TF フレーム</translation>
    </message>
    <message>
        <source>Colour by this field (rgb: the cloud&apos;s own colours)</source>
        <translation>このフィールドで色分け（rgb: 点群自体の色）</translation>
    </message>
    <message>
        <source>size </source>
        <translation>サイズ </translation>
    </message>
    <message>
        <source>last </source>
        <translation>直近 </translation>
    </message>
    <message>
        <source> frames</source>
        <translation> フレーム</translation>
    </message>
    <message>
        <source>Accumulate the last N frames (in the fixed frame)</source>
        <translation>直近 N フレームを重ねて表示（固定フレーム上）</translation>
    </message>
    <message>
        <source>Fixed frame: clouds are moved into it through /tf at their stamp</source>
        <translation>固定フレーム: 点群はスタンプ時点の /tf でこのフレームに変換されます</translation>
    </message>
    <message>
        <source>Colour:</source>
        <translation>色:</translation>
    </message>
    <message>
        <source>Fixed frame:</source>
        <translation>固定フレーム:</translation>
    </message>
    <message>
        <source>Reset View</source>
        <translation>視点をリセット</translation>
    </message>
    <message>
        <source>Top</source>
        <translation>上面</translation>
    </message>
    <message>
        <source>Side</source>
        <translation>側面</translation>
    </message>
    <message>
        <source>(sensor frame)</source>
        <translation>（センサーフレーム）</translation>
    </message>
    <message>
        <source>Save Frame…</source>
        <translation>このフレームを保存…</translation>
    </message>
    <message>
        <source>Save This Frame As</source>
        <translation>このフレームを名前を付けて保存</translation>
    </message>
    <message>
        <source>Colour map for the field&apos;s values</source>
        <translation>フィールドの値に使うカラーマップ</translation>
    </message>
    <message numerus="yes">
        <source>%1 points in %n frame(s) · %2 · stamp %3</source>
        <translation>
            <numerusform>%n フレームで %1 点 · %2 · スタンプ %3</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: no cloud is shown</source>
        <translation>%1: 点群が表示されていません</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>レイヤー</translation>
    </message>
    <message>
        <source>Topics drawn with the cloud: markers, paths, poses, odometry, maps, polygons, camera frustums</source>
        <translation>点群と一緒に描くトピック: マーカー、経路、姿勢、オドメトリ、地図、多角形、カメラの視錐台</translation>
    </message>
    <message>
        <source>This recording has no markers, paths, poses or maps.</source>
        <translation>この記録にはマーカー・経路・姿勢・地図がありません。</translation>
    </message>
    <message>
        <source>(no namespace)</source>
        <translation>（名前空間なし）</translation>
    </message>
    <message>
        <source>decay </source>
        <translation>減衰 </translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>no decay</source>
        <translation>減衰なし</translation>
    </message>
    <message>
        <source>Show only the frames of the last seconds before the playhead (at most the last N)</source>
        <translation>再生位置までの直近の秒数のフレームだけを表示（最大 N フレーム）</translation>
    </message>
    <message>
        <source>Layer Settings…</source>
        <translation>レイヤー設定…</translation>
    </message>
    <message>
        <source>Namespaces and Entities</source>
        <translation>名前空間とエンティティ</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… ほか %n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>This recording has no point cloud or laser scan topics; Layers draws its markers, paths, poses and maps.</source>
        <translation>この記録には点群やレーザースキャンのトピックがありません。「レイヤー」でマーカー・経路・姿勢・地図を表示できます。</translation>
    </message>
    <message>
        <source>The camera moves with this frame as the playhead moves (in the fixed frame)</source>
        <translation>再生位置が動くと、カメラがこのフレームとともに動きます（固定フレーム内）</translation>
    </message>
    <message>
        <source>follow no frame</source>
        <translation>フレームを追従しない</translation>
    </message>
    <message>
        <source>1 in %1 points drawn while playing</source>
        <translation>再生中は %1 点に 1 点を描画</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::ColourRange</name>
    <message>
        <source>Auto range</source>
        <translation>自動範囲</translation>
    </message>
    <message>
        <source>Value shown as the first colour of the map</source>
        <translation>カラーマップの最初の色に対応する値</translation>
    </message>
    <message>
        <source>Value shown as the last colour of the map</source>
        <translation>カラーマップの最後の色に対応する値</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::CompareDialog</name>
    <message>
        <source>Compare With</source>
        <translation>比較</translation>
    </message>
    <message>
        <source>A bag, MCAP file or rosbag2 folder</source>
        <translation>bag、MCAP ファイルまたは rosbag2 フォルダー</translation>
    </message>
    <message>
        <source>Files…</source>
        <translation>ファイル…</translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation>フォルダー…</translation>
    </message>
    <message>
        <source>Run B</source>
        <translation>ラン B</translation>
    </message>
    <message>
        <source>Recordings (%1);;All files (*)</source>
        <translation>記録 (%1);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Their starts</source>
        <translation>両方の開始</translation>
    </message>
    <message>
        <source>Their starts, B moved by an offset</source>
        <translation>両方の開始、B をオフセット分ずらす</translation>
    </message>
    <message>
        <source>An event in both runs</source>
        <translation>両ランのイベント</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>B later by:</source>
        <translation>B の遅れ：</translation>
    </message>
    <message>
        <source>empty: the topic&apos;s first message</source>
        <translation>空欄：トピックの最初のメッセージ</translation>
    </message>
    <message>
        <source>Topic:</source>
        <translation>トピック：</translation>
    </message>
    <message>
        <source>First time the field crosses:</source>
        <translation>フィールドが最初に越える値：</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比較</translation>
    </message>
    <message>
        <source>Run B:</source>
        <translation>ラン B：</translation>
    </message>
    <message>
        <source>Align by:</source>
        <translation>揃え方：</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::DiagnosticsPanel</name>
    <message>
        <source>Hardware / Name</source>
        <translation>ハードウェア / 名前</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>レベル</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>メッセージ</translation>
    </message>
    <message>
        <source>Since (s)</source>
        <translation>開始（秒）</translation>
    </message>
    <message>
        <source>The latest status of each entry at the playhead; expand an entry for its values and its level changes</source>
        <translation>再生位置での各項目の最新状態。展開すると値とレベルの変化を表示します</translation>
    </message>
    <message>
        <source>This recording has no diagnostics topics.</source>
        <translation>この記録には診断トピックがありません。</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>読み込み中…</translation>
    </message>
    <message numerus="yes">
        <source>%n entries</source>
        <translation>
            <numerusform>%n 項目</numerusform>
        </translation>
    </message>
    <message>
        <source>Level changes</source>
        <translation>レベルの変化</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::Document</name>
    <message>
        <source>Decoding</source>
        <translation>デコード</translation>
    </message>
    <message>
        <source>%1 cannot be decoded: %2</source>
        <translation>%1 はデコードできません: %2</translation>
    </message>
    <message>
        <source>Not opened</source>
        <translation>開けなかったファイル</translation>
    </message>
    <message>
        <source>Recording</source>
        <translation>記録</translation>
    </message>
    <message>
        <source>Add the folder of its package&apos;s .msg files, or a recording that defines it, in Settings ▸ Message definitions.</source>
        <translation>設定 ▸ メッセージ定義 で、そのパッケージの .msg フォルダ、またはこの型を定義している記録を追加してください。</translation>
    </message>
    <message>
        <source>The alignment &apos;%1&apos; is not understood</source>
        <translation>揃え方「%1」を解釈できません</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::ExportWizard</name>
    <message>
        <source>Export</source>
        <translation>書き出し</translation>
    </message>
    <message>
        <source>What to export</source>
        <translation>書き出す内容</translation>
    </message>
    <message>
        <source>Tick the topics and choose a format for each.</source>
        <translation>書き出すトピックにチェックを入れ、それぞれの形式を選んでください。</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>トピック</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>型</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>メッセージ数</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>形式</translation>
    </message>
    <message>
        <source>When</source>
        <translation>時間範囲</translation>
    </message>
    <message>
        <source>Which part of the recording, and how many of its messages.</source>
        <translation>記録のどの部分を、どれだけのメッセージで書き出すか。</translation>
    </message>
    <message>
        <source>The whole recording</source>
        <translation>記録全体</translation>
    </message>
    <message>
        <source>The range selected on the timeline</source>
        <translation>タイムラインで選択した範囲</translation>
    </message>
    <message>
        <source>From … to … (seconds from the start):</source>
        <translation>開始 … 終了 …（記録開始からの秒数）:</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Keep every n-th message of each topic (1: all)</source>
        <translation>各トピックで n 件ごとに 1 件を残す（1: すべて）</translation>
    </message>
    <message>
        <source>Keep every n-th message of each topic (1: all):</source>
        <translation>各トピックで n 件ごとに 1 件を残す（1: すべて）:</translation>
    </message>
    <message>
        <source>How</source>
        <translation>書き出し方法</translation>
    </message>
    <message>
        <source>Options of the chosen formats.</source>
        <translation>選んだ形式のオプション。</translation>
    </message>
    <message>
        <source>Images and video</source>
        <translation>画像と動画</translation>
    </message>
    <message>
        <source>Tables (CSV, NumPy)</source>
        <translation>表（CSV、NumPy）</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>保存先</translation>
    </message>
    <message>
        <source>The folder and the file names. Files are written under a temporary name and renamed when complete.</source>
        <translation>フォルダーとファイル名。ファイルは一時的な名前で書き込まれ、完了時に名前が変更されます。</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>選択…</translation>
    </message>
    <message>
        <source>default: {topic}/{bag}_frame_{index}.{ext} per frame, {bag}_{topic}.{ext} per topic</source>
        <translation>既定: フレームごとに {topic}/{bag}_frame_{index}.{ext}、トピックごとに {bag}_{topic}.{ext}</translation>
    </message>
    <message>
        <source>Placeholders: {bag} {topic} {index} {stamp_ns} {log_time_ns} {ext}; &apos;/&apos; makes folders</source>
        <translation>プレースホルダー: {bag} {topic} {index} {stamp_ns} {log_time_ns} {ext}。&apos;/&apos; でフォルダーを作成</translation>
    </message>
    <message>
        <source>Keep existing files: stop and list them</source>
        <translation>既存のファイルを残す: 中止して一覧を表示</translation>
    </message>
    <message>
        <source>Replace existing files</source>
        <translation>既存のファイルを置き換える</translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation>フォルダー:</translation>
    </message>
    <message>
        <source>File names:</source>
        <translation>ファイル名:</translation>
    </message>
    <message>
        <source>The first files:</source>
        <translation>最初のファイル:</translation>
    </message>
    <message>
        <source>Export into</source>
        <translation>書き出し先</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>進行状況</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Cancel Export</source>
        <translation>書き出しを中止</translation>
    </message>
    <message>
        <source>Open Folder</source>
        <translation>フォルダーを開く</translation>
    </message>
    <message>
        <source>File names may only make folders inside the chosen folder: no absolute path, no &apos;..&apos;.</source>
        <translation>ファイル名は選んだフォルダーの中にフォルダーを作れるだけです：絶対パスや「..」は使えません。</translation>
    </message>
    <message>
        <source>With several topics the file names need {topic}, or they would collide.</source>
        <translation>複数のトピックを書き出すときは、名前が重ならないようファイル名に {topic} が必要です。</translation>
    </message>
    <message>
        <source>Files that exist will be replaced, e.g. %1.</source>
        <translation>既存のファイルは置き換えられます（例: %1）。</translation>
    </message>
    <message>
        <source>Files exist already, e.g. %1: the export will stop. Choose &quot;Replace existing files&quot; or another folder.</source>
        <translation>ファイルがすでにあります（例: %1）。このままでは中止されます。「既存のファイルを置き換える」を選ぶか、別のフォルダーを指定してください。</translation>
    </message>
    <message>
        <source>Choose a folder.</source>
        <translation>フォルダーを選んでください。</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>待機中</translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation>書き出し中…</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>中止しました。</translation>
    </message>
    <message>
        <source>about %1 s left</source>
        <translation>残り約 %1 秒</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>開始中</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s), %1, in %2 s.</source>
        <translation>
            <numerusform>%n ファイル、%1、%2 秒。</numerusform>
        </translation>
    </message>
    <message>
        <source>Skipped messages: %1</source>
        <translation>スキップしたメッセージ: %1</translation>
    </message>
    <message>
        <source>Not replaced (they exist): %1</source>
        <translation>置き換えなかったファイル（既存）: %1</translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> ほか %n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>one message in %1 of each topic</source>
        <translation>各トピックの %1 件に 1 件のメッセージ</translation>
    </message>
    <message>
        <source>Also applied: %1.</source>
        <translation>さらに適用：%1。</translation>
    </message>
    <message>
        <source>Point clouds (%1)</source>
        <translation>点群（%1）</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::ImagePanel</name>
    <message>
        <source>Colour map for depth and 16-bit images</source>
        <translation>深度画像と 16 ビット画像のカラーマップ</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>全体表示</translation>
    </message>
    <message>
        <source>1:1</source>
        <translation>1:1</translation>
    </message>
    <message>
        <source>One image pixel per screen pixel</source>
        <translation>画像の 1 ピクセルを画面の 1 ピクセルで表示</translation>
    </message>
    <message>
        <source>x %1, y %2: %3</source>
        <translation>x %1, y %2: %3</translation>
    </message>
    <message>
        <source>Save Frame…</source>
        <translation>このフレームを保存…</translation>
    </message>
    <message>
        <source>Save this frame as PNG (raw values, 16-bit depth kept) or JPEG</source>
        <translation>このフレームを PNG（元の値のまま、16 ビット深度も保持）または JPEG で保存</translation>
    </message>
    <message>
        <source>Save This Frame As</source>
        <translation>このフレームを名前を付けて保存</translation>
    </message>
    <message>
        <source>This recording has no image topics.</source>
        <translation>この記録には画像トピックがありません。</translation>
    </message>
    <message>
        <source>%1  %2×%3  stamp %4  frame %5</source>
        <translation>%1  %2×%3  スタンプ %4  フレーム %5</translation>
    </message>
    <message>
        <source>%1: no frame is shown</source>
        <translation>%1: フレームが表示されていません</translation>
    </message>
    <message>
        <source>no CameraInfo for this image</source>
        <translation>この画像の CameraInfo がありません</translation>
    </message>
    <message>
        <source>%1 of %2 points in view, coloured by range (0–%3 m)</source>
        <translation>%2 点中 %1 点が視野内、距離で色分け（0–%3 m）</translation>
    </message>
    <message>
        <source>Undistort</source>
        <translation>歪み補正</translation>
    </message>
    <message>
        <source>Project a point cloud into the image with the camera&apos;s calibration (CameraInfo) and the transform between their frames at the image&apos;s stamp</source>
        <translation>カメラのキャリブレーション（CameraInfo）と画像のスタンプ時点の座標変換で点群を画像に投影します</translation>
    </message>
    <message>
        <source>Remap the raw image through the camera&apos;s distortion model (CameraInfo)</source>
        <translation>カメラの歪みモデル（CameraInfo）で生画像を再マッピングします</translation>
    </message>
    <message>
        <source>No overlay</source>
        <translation>オーバーレイなし</translation>
    </message>
    <message>
        <source>Overlay %1</source>
        <translation>%1 を重ねる</translation>
    </message>
    <message>
        <source>  undistorted</source>
        <translation>  歪み補正済み</translation>
    </message>
    <message>
        <source>the cloud has no field %1</source>
        <translation>点群にフィールド %1 がありません</translation>
    </message>
    <message>
        <source>%1 of %2 points in view, in their own colours</source>
        <translation>%2 点中 %1 点が視野内、各点の色で表示</translation>
    </message>
    <message>
        <source>%1 of %2 points in view, coloured by %3 (%4 – %5)</source>
        <translation>%2 点中 %1 点が視野内、%3 で色分け（%4 – %5）</translation>
    </message>
    <message>
        <source>What the projected points are coloured by: their range, or a field of the cloud</source>
        <translation>投影した点の色分け：距離、または点群のフィールド</translation>
    </message>
    <message>
        <source>by range</source>
        <translation>距離で</translation>
    </message>
    <message>
        <source>by %1</source>
        <translation>%1 で</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::InspectorPanel</name>
    <message>
        <source>Search fields</source>
        <translation>フィールドを検索</translation>
    </message>
    <message>
        <source>Select a topic to see its message at the playhead.</source>
        <translation>トピックを選択すると、再生位置のメッセージが表示されます。</translation>
    </message>
    <message>
        <source>This topic has no messages.</source>
        <translation>このトピックにはメッセージがありません。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2) — message %3 of %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（%2）— %4 件中 %3 件目</translation>
    </message>
    <message>
        <source>log time %1</source>
        <translation>記録時刻 %1</translation>
    </message>
    <message>
        <source>(after the playhead: the topic&apos;s first message)</source>
        <translation>（再生位置より後：このトピックの最初のメッセージ）</translation>
    </message>
    <message>
        <source>header.stamp %1 (stamp − log time: %2 ms)</source>
        <translation>header.stamp %1（スタンプ − 記録時刻: %2 ms）</translation>
    </message>
    <message>
        <source>Copy Value</source>
        <translation>値をコピー</translation>
    </message>
    <message>
        <source>Copy Path</source>
        <translation>パスをコピー</translation>
    </message>
    <message>
        <source>Copy Message as JSON</source>
        <translation>メッセージを JSON でコピー</translation>
    </message>
    <message>
        <source>Copy Message as YAML</source>
        <translation>メッセージを YAML でコピー</translation>
    </message>
    <message>
        <source>Expand All</source>
        <translation>すべて展開</translation>
    </message>
    <message>
        <source>Collapse All</source>
        <translation>すべて折りたたむ</translation>
    </message>
    <message>
        <source>header.stamp %1</source>
        <translation>header.stamp %1</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::LayerSettingsDialog</name>
    <message>
        <source>Layer Settings</source>
        <translation>レイヤー設定</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>レイヤー</translation>
    </message>
    <message>
        <source>Colour</source>
        <translation>色</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>サイズ</translation>
    </message>
    <message>
        <source>The layer&apos;s colour: automatic (markers: their own) or one you choose</source>
        <translation>レイヤーの色：自動（マーカーは自身の色）または選んだ色</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自動</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>選択…</translation>
    </message>
    <message>
        <source>Colour of %1</source>
        <translation>%1 の色</translation>
    </message>
    <message>
        <source> m</source>
        <translation> m</translation>
    </message>
    <message>
        <source>Arrow length, or the camera frustum&apos;s depth</source>
        <translation>矢印の長さ、またはカメラ視錐台の奥行き</translation>
    </message>
    <message>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <source>Line and point thickness</source>
        <translation>線と点の太さ</translation>
    </message>
    <message>
        <source>No layers: choose topics in the Layers menu.</source>
        <translation>レイヤーがありません：「レイヤー」メニューでトピックを選んでください。</translation>
    </message>
    <message>
        <source>Map</source>
        <translation>マップ</translation>
    </message>
    <message>
        <source>Costmap</source>
        <translation>コストマップ</translation>
    </message>
    <message>
        <source>Map: free white, occupied black. Costmap: cost blue to red, inscribed cyan, lethal magenta, free clear (as RViz draws them)</source>
        <translation>マップ：空きは白、占有は黒。コストマップ：コストは青から赤、内接はシアン、致命はマゼンタ、空きは透明（RViz と同じ）</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::LogPanel</name>
    <message>
        <source>Time (s)</source>
        <translation>時刻（秒）</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>レベル</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>ノード</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>メッセージ</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>ソース</translation>
    </message>
    <message>
        <source>Follow playhead</source>
        <translation>再生位置に追従</translation>
    </message>
    <message>
        <source>%1 and above</source>
        <translation>%1 以上</translation>
    </message>
    <message>
        <source>The least severe level shown</source>
        <translation>表示する最も低い重大度</translation>
    </message>
    <message>
        <source>All nodes</source>
        <translation>すべてのノード</translation>
    </message>
    <message>
        <source>Search messages, nodes, files</source>
        <translation>メッセージ・ノード・ファイルを検索</translation>
    </message>
    <message>
        <source>Scroll to the last line at or before the playhead as it moves</source>
        <translation>再生位置の移動に合わせ、その時点以前の最後の行へスクロール</translation>
    </message>
    <message>
        <source>Double-click a line to move the playhead there</source>
        <translation>行をダブルクリックすると再生位置をそこへ移動します</translation>
    </message>
    <message>
        <source>This recording has no log topics.</source>
        <translation>この記録にはログトピックがありません。</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>読み込み中…</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n line(s)</source>
        <translation>
            <numerusform>%1 / %n 行</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::MainWindow</name>
    <message>
        <source>Bagscope</source>
        <translation>Bagscope</translation>
    </message>
    <message>
        <source>Topics</source>
        <translation>トピック</translation>
    </message>
    <message>
        <source>Message Inspector</source>
        <translation>メッセージインスペクター</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>タイムライン</translation>
    </message>
    <message>
        <source>Open a recording with File ▸ Open, or drop bags and folders here.</source>
        <translation>「ファイル ▸ 開く」で記録を開くか、bag ファイルやフォルダーをここにドロップしてください。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Opening was cancelled.</source>
        <translation>読み込みをキャンセルしました。</translation>
    </message>
    <message>
        <source>Measuring topic sizes… %1%</source>
        <translation>トピックのサイズを計測中… %1%</translation>
    </message>
    <message>
        <source>Open a recording (ROS 1 .bag, .mcap, rosbag2 folder) with File ▸ Open or drop it on the window.</source>
        <translation>「ファイル ▸ 開く」で記録（ROS 1 の .bag、.mcap、rosbag2 フォルダー）を開くか、ウィンドウにドロップしてください。</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>開く(&amp;O)…</translation>
    </message>
    <message>
        <source>Open recordings</source>
        <translation>記録を開く</translation>
    </message>
    <message>
        <source>Open &amp;Folder…</source>
        <translation>フォルダーを開く(&amp;D)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <source>Open a rosbag2 folder or a folder of bags</source>
        <translation>rosbag2 フォルダー、または bag ファイルのあるフォルダーを開く</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近使ったファイル(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>閉じる(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>設定(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <source>Zoom Timeline to Fit</source>
        <translation>タイムラインを全体表示</translation>
    </message>
    <message>
        <source>&amp;Layouts</source>
        <translation>レイアウト(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Playback</source>
        <translation>再生(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Bagscope</source>
        <translation>Bagscope について(&amp;A)</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>%1 を開いています…</translation>
    </message>
    <message>
        <source>Could not open</source>
        <translation>開けませんでした</translation>
    </message>
    <message>
        <source>Some files could not be opened</source>
        <translation>一部のファイルを開けませんでした</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) could not be opened; the others are open.</source>
        <translation>
            <numerusform>%n 件のファイルを開けませんでした。ほかのファイルは開いています。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — Bagscope</source>
        <translation>%1 — Bagscope</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n ファイル</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 messages</source>
        <translation>%1 メッセージ</translation>
    </message>
    <message numerus="yes">
        <source>Opened with %n problem(s): %1</source>
        <translation>
            <numerusform>開きましたが、%n 件の問題があります: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>最近使ったファイルはありません</translation>
    </message>
    <message>
        <source>Clear Recent Files</source>
        <translation>履歴を消去</translation>
    </message>
    <message>
        <source>Could not load the layout</source>
        <translation>レイアウトを読み込めませんでした</translation>
    </message>
    <message>
        <source>No saved layouts</source>
        <translation>保存済みのレイアウトはありません</translation>
    </message>
    <message>
        <source>Save Layout As…</source>
        <translation>レイアウトに名前を付けて保存…</translation>
    </message>
    <message>
        <source>Import Layout…</source>
        <translation>レイアウトを読み込む…</translation>
    </message>
    <message>
        <source>Export Layout…</source>
        <translation>レイアウトを書き出す…</translation>
    </message>
    <message>
        <source>Delete Layout</source>
        <translation>レイアウトを削除</translation>
    </message>
    <message>
        <source>Save Layout</source>
        <translation>レイアウトを保存</translation>
    </message>
    <message>
        <source>Layout name:</source>
        <translation>レイアウト名:</translation>
    </message>
    <message>
        <source>Replace the layout “%1”?</source>
        <translation>レイアウト「%1」を置き換えますか？</translation>
    </message>
    <message>
        <source>Could not save the layout</source>
        <translation>レイアウトを保存できませんでした</translation>
    </message>
    <message>
        <source>Import Layout</source>
        <translation>レイアウトを読み込む</translation>
    </message>
    <message>
        <source>Bagscope layouts (*.json)</source>
        <translation>Bagscope レイアウト (*.json)</translation>
    </message>
    <message>
        <source>Could not import the layout</source>
        <translation>レイアウトを読み込めませんでした</translation>
    </message>
    <message>
        <source>Export Layout</source>
        <translation>レイアウトを書き出す</translation>
    </message>
    <message>
        <source>layout.json</source>
        <translation>layout.json</translation>
    </message>
    <message>
        <source>Could not export the layout</source>
        <translation>レイアウトを書き出せませんでした</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>言語</translation>
    </message>
    <message>
        <source>The new language takes effect when Bagscope starts again.</source>
        <translation>新しい言語は Bagscope の次回起動時に反映されます。</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>書き出し(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Align Start Times</source>
        <translation>開始時刻をそろえる</translation>
    </message>
    <message>
        <source>Shift each open file&apos;s times so that all start together (recordings of different days side by side)</source>
        <translation>開いている各ファイルの時刻をずらして開始をそろえる（別の日の記録を並べて比べる）</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>問題</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s)</source>
        <translation>
            <numerusform>%n 件の問題</numerusform>
        </translation>
    </message>
    <message>
        <source>What this recording could not give in full: open the Problems panel</source>
        <translation>この記録で完全には読めなかったもの:「問題」パネルを開く</translation>
    </message>
    <message>
        <source>Recordings (%1);;All files (*)</source>
        <translation>記録ファイル (%1);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Recover…</source>
        <translation>復元…</translation>
    </message>
    <message>
        <source>Write every message that could be read to a new, clean recording</source>
        <translation>読み取れたすべてのメッセージを新しい正常な記録に書き出します</translation>
    </message>
    <message>
        <source>&amp;Save Selection As…</source>
        <translation>選択範囲を別名で保存(&amp;S)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+S</source>
        <translation>Ctrl+Shift+S</translation>
    </message>
    <message>
        <source>&amp;Recover…</source>
        <translation>復元(&amp;R)…</translation>
    </message>
    <message>
        <source>The arrangement of the last session could not be restored (the app stopped while restoring it); the default arrangement is shown. Saved layouts are kept in View ▸ Layouts.</source>
        <translation>前回のセッションの配置を復元できませんでした（復元中にアプリが停止しました）。既定の配置を表示します。保存したレイアウトは 表示 ▸ レイアウト に残っています。</translation>
    </message>
    <message>
        <source>Arrangement</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>No panels</source>
        <translation>パネルなし</translation>
    </message>
    <message>
        <source>Remove Closed Panels</source>
        <translation>閉じたパネルを削除</translation>
    </message>
    <message>
        <source>&amp;Panels</source>
        <translation>パネル(&amp;P)</translation>
    </message>
    <message>
        <source>The arrangement of the layout “%1” could not be applied; the default arrangement is shown.</source>
        <translation>レイアウト「%1」の配置を適用できませんでした。既定の配置を表示します。</translation>
    </message>
    <message>
        <source>of the last session</source>
        <translation>前回のセッションの</translation>
    </message>
    <message>
        <source>Compare &amp;With…</source>
        <translation>比較(&amp;W)…</translation>
    </message>
    <message>
        <source>Stop Comparing</source>
        <translation>比較をやめる</translation>
    </message>
    <message>
        <source>Run B: not set against A</source>
        <translation>ラン B：A に揃えられません</translation>
    </message>
    <message>
        <source>Opening run B…</source>
        <translation>ラン B を開いています…</translation>
    </message>
    <message>
        <source>Compared with %1</source>
        <translation>%1 と比較中</translation>
    </message>
    <message>
        <source>Run B aligned by %1: its times %2 s</source>
        <translation>ラン B は %1 で揃えています：時刻 %2 秒</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::MapPanel</name>
    <message>
        <source>Drag to pan, wheel to zoom; east is right, north is up</source>
        <translation>ドラッグで移動、ホイールで拡大縮小。右が東、上が北</translation>
    </message>
    <message>
        <source>This recording has no satellite fixes.</source>
        <translation>この記録には衛星測位がありません。</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>読み込み中…</translation>
    </message>
    <message numerus="yes">
        <source>%n fix(es)</source>
        <translation>
            <numerusform>%n 件の測位</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n without a position</source>
        <translation>
            <numerusform>位置なし %n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>%1° %2° · %3 m east, %4 m north of the first fix</source>
        <translation>%1° %2° · 最初の測位から東 %3 m、北 %4 m</translation>
    </message>
    <message>
        <source>Tiles</source>
        <translation>タイル</translation>
    </message>
    <message>
        <source>Background tiles from a tile server you choose (off: nothing is fetched)</source>
        <translation>選んだタイルサーバーの背景タイル（オフ：何も取得しません）</translation>
    </message>
    <message>
        <source>Map Tiles</source>
        <translation>地図タイル</translation>
    </message>
    <message>
        <source>Tile URL, with {z}, {x} and {y} (the tile server&apos;s terms apply):</source>
        <translation>タイル URL（{z}、{x}、{y} を含む。タイルサーバーの利用条件に従います）：</translation>
    </message>
    <message numerus="yes">
        <source>%n tile(s) not fetched: %1</source>
        <translation>
            <numerusform>%n 枚のタイルを取得できません：%1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::MapTiles</name>
    <message>
        <source>© OpenStreetMap contributors</source>
        <translation>© OpenStreetMap 協力者</translation>
    </message>
    <message>
        <source>Tiles: local files</source>
        <translation>タイル：ローカルファイル</translation>
    </message>
    <message>
        <source>Tiles: %1</source>
        <translation>タイル：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1: not an image</source>
        <translation>%1: 画像ではありません</translation>
    </message>
    <message>
        <source>%1: more than %2 MB, not a tile</source>
        <translation>%1: %2 MB を超えています。タイルではありません</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::MapView</name>
    <message>
        <source>%1 km</source>
        <translation>%1 km</translation>
    </message>
    <message>
        <source>%1 m</source>
        <translation>%1 m</translation>
    </message>
    <message>
        <source>N</source>
        <translation>北</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::MessageTreeModel</name>
    <message numerus="yes">
        <source>%n more item(s) not shown</source>
        <translation>
            <numerusform>ほか %n 項目は表示していません</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n byte(s)</source>
        <translation>
            <numerusform>%n バイト</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation>
            <numerusform>%n 項目</numerusform>
        </translation>
    </message>
    <message>
        <source>Field</source>
        <translation>フィールド</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>型</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>値</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::MessagesPanel</name>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Log time (s)</source>
        <translation>記録時刻（秒）</translation>
    </message>
    <message>
        <source>Stamp (s)</source>
        <translation>スタンプ（秒）</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>バイト</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>メッセージ</translation>
    </message>
    <message>
        <source>cannot be read: %1</source>
        <translation>読み取れません: %1</translation>
    </message>
    <message>
        <source>cannot be decoded: %1</source>
        <translation>デコードできません: %1</translation>
    </message>
    <message>
        <source>Follow playhead</source>
        <translation>再生位置に追従</translation>
    </message>
    <message>
        <source>Click a message to move the playhead to it</source>
        <translation>メッセージをクリックすると再生位置をそこへ移動します</translation>
    </message>
    <message>
        <source>Select the message at or before the playhead as it moves</source>
        <translation>再生位置の移動に合わせ、その時点以前のメッセージを選択</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::Panel</name>
    <message>
        <source>Saving failed</source>
        <translation>保存に失敗しました</translation>
    </message>
    <message>
        <source>%1: the recording has no topic %2</source>
        <translation>%1：記録にトピック %2 がありません</translation>
    </message>
    <message>
        <source>%1: a %2 message is saved as %3, not “.%4”</source>
        <translation>%1：%2 メッセージは %3 で保存します（“.%4” ではありません）</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::PlaybackBar</name>
    <message>
        <source>Playback</source>
        <translation>再生</translation>
    </message>
    <message>
        <source>Jump to Start</source>
        <translation>先頭へ移動</translation>
    </message>
    <message>
        <source>Previous Message of Selected Topic</source>
        <translation>選択中トピックの前のメッセージ</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>再生</translation>
    </message>
    <message>
        <source>Next Message of Selected Topic</source>
        <translation>選択中トピックの次のメッセージ</translation>
    </message>
    <message>
        <source>Jump to End</source>
        <translation>末尾へ移動</translation>
    </message>
    <message>
        <source>Previous Message of Any Topic</source>
        <translation>いずれかのトピックの前のメッセージ</translation>
    </message>
    <message>
        <source>Next Message of Any Topic</source>
        <translation>いずれかのトピックの次のメッセージ</translation>
    </message>
    <message>
        <source>Loop</source>
        <translation>ループ</translation>
    </message>
    <message>
        <source>Loop within the selected range (or the whole recording) (L)</source>
        <translation>選択範囲（または記録全体）をループ再生 (L)</translation>
    </message>
    <message>
        <source>Playback speed</source>
        <translation>再生速度</translation>
    </message>
    <message>
        <source>Range:</source>
        <translation>範囲:</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Seconds from the start of the recording. Shift-drag on the timeline to select a range.</source>
        <translation>記録の開始からの秒数です。タイムライン上で Shift を押しながらドラッグすると範囲を選択できます。</translation>
    </message>
    <message>
        <source>Clear Range</source>
        <translation>範囲を解除</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>一時停止</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::PlotPanel</name>
    <message>
        <source>Add XY Series</source>
        <translation>XY 系列を追加</translation>
    </message>
    <message>
        <source>Add Series</source>
        <translation>系列を追加</translation>
    </message>
    <message>
        <source>Filter fields</source>
        <translation>フィールドを絞り込む</translation>
    </message>
    <message>
        <source>Topic:</source>
        <translation>トピック:</translation>
    </message>
    <message>
        <source>Choose two fields: x first, then y.</source>
        <translation>フィールドを 2 つ選んでください（先に x、次に y）。</translation>
    </message>
    <message>
        <source>Fields:</source>
        <translation>フィールド:</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>時間</translation>
    </message>
    <message>
        <source>XY</source>
        <translation>XY</translation>
    </message>
    <message>
        <source>Add Series…</source>
        <translation>系列を追加…</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>全体表示</translation>
    </message>
    <message>
        <source>Show all data</source>
        <translation>すべてのデータを表示</translation>
    </message>
    <message>
        <source>More</source>
        <translation>その他</translation>
    </message>
    <message>
        <source>Drag a numeric field here from the message inspector, or use Add Series…</source>
        <translation>メッセージインスペクターから数値フィールドをここへドラッグするか、「系列を追加…」を使ってください</translation>
    </message>
    <message>
        <source>seconds from the start</source>
        <translation>開始からの秒数</translation>
    </message>
    <message>
        <source>Export Visible Range as CSV…</source>
        <translation>表示範囲を CSV に書き出す…</translation>
    </message>
    <message>
        <source>Export Visible Range as CSV</source>
        <translation>表示範囲を CSV に書き出す</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV ファイル (*.csv)</translation>
    </message>
    <message>
        <source>Save as Image…</source>
        <translation>画像として保存…</translation>
    </message>
    <message>
        <source>Save Plot as Image</source>
        <translation>グラフを画像として保存</translation>
    </message>
    <message>
        <source>Saving failed</source>
        <translation>保存に失敗しました</translation>
    </message>
    <message>
        <source>Remove All Series</source>
        <translation>すべての系列を削除</translation>
    </message>
    <message>
        <source>no topic %1 in this recording</source>
        <translation>この記録にはトピック %1 がありません</translation>
    </message>
    <message>
        <source>time of day</source>
        <translation>時刻</translation>
    </message>
    <message>
        <source>Unix time (s)</source>
        <translation>Unix 時間（秒）</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%2 の%1</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n sample(s), min %2, max %3, mean %4, std %5, %6 Hz</source>
        <translation>
            <numerusform>%1：%n サンプル、最小 %2、最大 %3、平均 %4、標準偏差 %5、%6 Hz</numerusform>
        </translation>
    </message>
    <message>
        <source>Logarithmic Y Axis</source>
        <translation>対数 Y 軸</translation>
    </message>
    <message>
        <source>Equal Axis Scales (XY)</source>
        <translation>軸の縮尺を揃える（XY）</translation>
    </message>
    <message>
        <source>One unit as long on both axes: a trajectory keeps its shape</source>
        <translation>両軸で 1 単位を同じ長さに：軌跡の形が保たれます</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>名前を変更…</translation>
    </message>
    <message>
        <source>Rename Series</source>
        <translation>系列の名前を変更</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名前：</translation>
    </message>
    <message>
        <source>Colour…</source>
        <translation>色…</translation>
    </message>
    <message>
        <source>Series Colour</source>
        <translation>系列の色</translation>
    </message>
    <message>
        <source>Right Y Axis</source>
        <translation>右の Y 軸</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Derived Series</source>
        <translation>派生系列</translation>
    </message>
    <message>
        <source> [header stamp]</source>
        <translation> [header stamp 時刻]</translation>
    </message>
    <message>
        <source>Header Stamp as Time</source>
        <translation>header stamp を時刻に使う</translation>
    </message>
    <message>
        <source>Place its samples at their header stamp instead of their log time</source>
        <translation>サンプルを記録時刻ではなく header stamp の位置に置きます</translation>
    </message>
    <message>
        <source>%1, by header stamp</source>
        <translation>%1、header stamp による</translation>
    </message>
    <message>
        <source>%1, by log time (by header stamp where marked)</source>
        <translation>%1、記録時刻による（印のある系列は header stamp）</translation>
    </message>
    <message>
        <source>Legend Beside the Plot</source>
        <translation>凡例をプロットの横に</translation>
    </message>
    <message>
        <source>Draw As</source>
        <translation>描画方法</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>線</translation>
    </message>
    <message>
        <source>Points</source>
        <translation>点</translation>
    </message>
    <message>
        <source>Line and Points</source>
        <translation>線と点</translation>
    </message>
    <message>
        <source>(the same topic)</source>
        <translation>（同じトピック）</translation>
    </message>
    <message>
        <source>X from topic:</source>
        <translation>X のトピック：</translation>
    </message>
    <message>
        <source>X field:</source>
        <translation>X のフィールド：</translation>
    </message>
    <message>
        <source>Choose two fields, x then y, or an x field of another topic and one y field.</source>
        <translation>2 つのフィールド（x、次に y）、または別トピックの x フィールドと y フィールド 1 つを選んでください。</translation>
    </message>
    <message>
        <source>Choose the y field.</source>
        <translation>y のフィールドを選んでください。</translation>
    </message>
    <message>
        <source>Add State Lane</source>
        <translation>状態レーンを追加</translation>
    </message>
    <message>
        <source>or type a path: ranges[0:10], markers[:]{id==3}.pose.position.x</source>
        <translation>またはパスを入力: ranges[0:10]、markers[:]{id==3}.pose.position.x</translation>
    </message>
    <message>
        <source>Message paths as in Foxglove: fields a.b.c; index [3], from the end [-1]; slices [0:10] (one series per element) and [:]; filters {id==3}, {key==&quot;temp&quot;}, {level&gt;=2}</source>
        <translation>Foxglove と同じメッセージパス: フィールド a.b.c、インデックス [3]、末尾から [-1]、スライス [0:10]（要素ごとに 1 系列）と [:]、フィルタ {id==3}、{key==&quot;temp&quot;}、{level&gt;=2}</translation>
    </message>
    <message>
        <source>Spectrum (FFT)</source>
        <translation>スペクトル（FFT）</translation>
    </message>
    <message>
        <source>Histogram</source>
        <translation>ヒストグラム</translation>
    </message>
    <message>
        <source>States</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Fields over time; one field against another; the spectrum or histogram of the time series over the range shown; fields as state lanes</source>
        <translation>フィールドの時間変化、フィールド同士の関係、表示範囲の時系列のスペクトルまたはヒストグラム、状態レーンとしてのフィールド</translation>
    </message>
    <message>
        <source>frequency (Hz)</source>
        <translation>周波数（Hz）</translation>
    </message>
    <message>
        <source>value</source>
        <translation>値</translation>
    </message>
    <message>
        <source>amplitude</source>
        <translation>振幅</translation>
    </message>
    <message>
        <source>samples</source>
        <translation>サンプル数</translation>
    </message>
    <message>
        <source>Custom Expression…</source>
        <translation>カスタム式…</translation>
    </message>
    <message>
        <source>Custom Expression</source>
        <translation>カスタム式</translation>
    </message>
    <message>
        <source>%1
t = time (s)

Expression (e.g. sqrt(a^2 + b^2), a - b, abs(a) * 2, atan2(b, a)):</source>
        <translation>%1
t = 時刻（秒）

式（例: sqrt(a^2 + b^2)、a - b、abs(a) * 2、atan2(b, a)）:</translation>
    </message>
    <message>
        <source>Over %1 s to %2 s of the time plot</source>
        <translation>時間プロットの %1 秒から %2 秒まで</translation>
    </message>
    <message>
        <source>At %1:</source>
        <translation>%1 の値：</translation>
    </message>
    <message>
        <source>At the playhead (%1):</source>
        <translation>再生位置（%1）の値：</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 画像 (*.png);;SVG 図 (*.svg);;PDF ドキュメント (*.pdf)</translation>
    </message>
    <message>
        <source>Export Aligned Table…</source>
        <translation>時刻をそろえた表をエクスポート…</translation>
    </message>
    <message>
        <source>Export Aligned Table</source>
        <translation>時刻をそろえた表をエクスポート</translation>
    </message>
    <message>
        <source>The visible series as one table: a row at each sample of the first, the others&apos; last value at or before it (as pandas&apos; merge_asof)</source>
        <translation>表示中の系列を 1 つの表に：最初の系列の各サンプルを 1 行とし、他の系列はその時刻以前の最後の値（pandas の merge_asof と同じ）</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n sample(s), RMS %2, max |Δ| %3, mean %4, correlation %5</source>
        <translation>
            <numerusform>%1：%n サンプル、RMS %2、最大 |Δ| %3、平均 %4、相関 %5</numerusform>
        </translation>
    </message>
    <message>
        <source>Run B Beside It</source>
        <translation>ラン B を並べて表示</translation>
    </message>
    <message>
        <source>Difference B − A</source>
        <translation>差分 B − A</translation>
    </message>
    <message>
        <source>%1 [B]</source>
        <translation>%1 [B]</translation>
    </message>
    <message>
        <source>%1 [B − A]</source>
        <translation>%1 [B − A]</translation>
    </message>
    <message>
        <source>%1: no run B (File ▸ Compare With…)</source>
        <translation>%1：ラン B がありません（ファイル ▸ 比較…）</translation>
    </message>
    <message>
        <source>no topic %1 in run B</source>
        <translation>ラン B にトピック %1 がありません</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::ProblemsPanel</name>
    <message>
        <source>No problems: every file opened whole and every topic decodes.</source>
        <translation>問題はありません: すべてのファイルが完全に開け、すべてのトピックをデコードできます。</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::SaveRecordingDialog</name>
    <message>
        <source>None</source>
        <translation>すべて解除</translation>
    </message>
    <message>
        <source>The whole recording</source>
        <translation>記録全体</translation>
    </message>
    <message>
        <source>Recover Recording</source>
        <translation>記録の復元</translation>
    </message>
    <message>
        <source>Save Selection As</source>
        <translation>選択範囲を別名で保存</translation>
    </message>
    <message>
        <source>Every message that could be read from the damaged recording is written to a new, indexed one. What could not be read is listed when it is done.</source>
        <translation>破損した記録から読み取れたすべてのメッセージを、インデックス付きの新しい記録に書き出します。読み取れなかったものは完了後に一覧表示します。</translation>
    </message>
    <message>
        <source>Topics:</source>
        <translation>トピック：</translation>
    </message>
    <message>
        <source>All</source>
        <translation>すべて選択</translation>
    </message>
    <message>
        <source>The selected range (%1 s to %2 s after the start)</source>
        <translation>選択範囲（開始から %1 秒〜%2 秒）</translation>
    </message>
    <message>
        <source>The selected range (none: Shift-drag on the timeline)</source>
        <translation>選択範囲（なし：タイムライン上で Shift＋ドラッグ）</translation>
    </message>
    <message>
        <source>Messages:</source>
        <translation>メッセージ：</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>形式：</translation>
    </message>
    <message>
        <source>Compression:</source>
        <translation>圧縮：</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>参照…</translation>
    </message>
    <message>
        <source>Save to:</source>
        <translation>保存先：</translation>
    </message>
    <message>
        <source>A %1 cannot hold %2 messages</source>
        <translation>%1 には %2 メッセージを格納できません</translation>
    </message>
    <message>
        <source>New rosbag2 Folder</source>
        <translation>新しい rosbag2 フォルダー</translation>
    </message>
    <message>
        <source>Save Recording</source>
        <translation>記録を保存</translation>
    </message>
    <message>
        <source>Tick at least one topic.</source>
        <translation>トピックを少なくとも一つ選んでください。</translation>
    </message>
    <message>
        <source>Choose where to save.</source>
        <translation>保存先を選んでください。</translation>
    </message>
    <message>
        <source>%1 exists already. Replace it?</source>
        <translation>%1 は既に存在します。置き換えますか？</translation>
    </message>
    <message>
        <source>Writing %1…</source>
        <translation>%1 を書き込み中…</translation>
    </message>
    <message>
        <source>Cancelled: nothing was written.</source>
        <translation>キャンセルしました：何も書き込まれていません。</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>保存されませんでした：%1</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n message(s) on %1 topic(s) to %2 (%3).</source>
        <translation>
            <numerusform>%n 件のメッセージ（%1 トピック）を %2 に書き込みました（%3）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Could not be read (%n):</source>
        <translation>
            <numerusform>読み取れなかったもの（%n 件）：</numerusform>
        </translation>
    </message>
    <message>
        <source>Not written: %1</source>
        <translation>書き込まれませんでした：%1</translation>
    </message>
    <message>
        <source>What the damaged recording lost:</source>
        <translation>破損した記録で失われたもの：</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <source>None</source>
        <comment>no compression</comment>
        <translation>なし</translation>
    </message>
    <message>
        <source>As recorded</source>
        <translation>記録どおり</translation>
    </message>
    <message>
        <source>ROS 2 (translate messages)</source>
        <translation>ROS 2（メッセージを変換）</translation>
    </message>
    <message>
        <source>ROS 1 (translate messages)</source>
        <translation>ROS 1（メッセージを変換）</translation>
    </message>
    <message>
        <source>Types, definitions and messages in the other ROS version&apos;s form, as bagscope-cli convert --to-ros2 or --to-ros1 writes them; what is renamed, dropped or left zero is listed when it is done</source>
        <translation>型・定義・メッセージをもう一方の ROS バージョンの形式で書き出します（bagscope-cli convert --to-ros2 / --to-ros1 と同じ）。名前の変更、削除、ゼロのままの項目は完了後に一覧表示されます</translation>
    </message>
    <message>
        <source>Messages as:</source>
        <translation>メッセージの形式:</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::SceneLayers</name>
    <message>
        <source>%1 is not in this recording</source>
        <translation>%1 はこの記録にありません</translation>
    </message>
    <message>
        <source>%1: the scene does not draw %2</source>
        <translation>%1: シーンは %2 を描きません</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) in frame %1 not drawn: no transform to %2</source>
        <translation>
            <numerusform>フレーム %1 の %n 個を描けません: %2 への変換がありません</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n mesh(es) drawn as boxes: mesh files are not read (%1)</source>
        <translation>
            <numerusform>%n 個のメッシュを箱で表示：メッシュファイルは読み込みません（%1）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>システムの設定に従う</translation>
    </message>
    <message>
        <source>Seconds from the start</source>
        <translation>開始からの秒数</translation>
    </message>
    <message>
        <source>Clock time</source>
        <translation>時刻</translation>
    </message>
    <message>
        <source>Unix time (s)</source>
        <translation>Unix 時間（秒）</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>Memory for decompressed chunks, shared by all panels. More makes moving back and forth faster.</source>
        <translation>展開済みチャンクを保持するメモリで、すべてのパネルで共有します。大きくすると前後の移動が速くなります。</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>言語:</translation>
    </message>
    <message>
        <source>A new language takes effect when Bagscope starts again.</source>
        <translation>言語の変更は Bagscope の再起動後に反映されます。</translation>
    </message>
    <message>
        <source>Show times as:</source>
        <translation>時刻の表示:</translation>
    </message>
    <message>
        <source>Cache budget:</source>
        <translation>キャッシュ上限:</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>選択…</translation>
    </message>
    <message>
        <source>Default export folder</source>
        <translation>既定の書き出し先フォルダー</translation>
    </message>
    <message>
        <source>Default export folder:</source>
        <translation>既定の書き出し先:</translation>
    </message>
    <message>
        <source>Used for types a recording does not define: folders holding package/msg/Type.msg files, and recordings whose definitions are borrowed. Applied to the open recording at once.</source>
        <translation>記録が定義していない型に使います：package/msg/Type.msg を含むフォルダと、定義を借りる記録。開いている記録にすぐ適用されます。</translation>
    </message>
    <message>
        <source>Add Folder…</source>
        <translation>フォルダを追加…</translation>
    </message>
    <message>
        <source>Add Recording…</source>
        <translation>記録を追加…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Folder of message definitions</source>
        <translation>メッセージ定義のフォルダ</translation>
    </message>
    <message>
        <source>Recording to borrow definitions from</source>
        <translation>定義を借りる記録</translation>
    </message>
    <message>
        <source>Message definitions:</source>
        <translation>メッセージ定義:</translation>
    </message>
    <message>
        <source>Recordings (%1)</source>
        <translation>記録 (%1)</translation>
    </message>
    <message>
        <source>The map&apos;s background tiles, fetched only when a map&apos;s Tiles box is ticked; empty: none</source>
        <translation>地図の背景タイル。地図の「タイル」をオンにしたときだけ取得します。空：なし</translation>
    </message>
    <message>
        <source>Map tile URL:</source>
        <translation>地図タイル URL:</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::StatsDialog</name>
    <message>
        <source>Stats — %1</source>
        <translation>統計 — %1</translation>
    </message>
    <message>
        <source>Largest gaps between messages:</source>
        <translation>メッセージ間の最大の間隔:</translation>
    </message>
    <message>
        <source>From</source>
        <translation>開始</translation>
    </message>
    <message>
        <source>To</source>
        <translation>終了</translation>
    </message>
    <message>
        <source>Length (ms)</source>
        <translation>長さ (ms)</translation>
    </message>
    <message>
        <source>Could not compute:</source>
        <translation>計算できませんでした:</translation>
    </message>
    <message>
        <source>Messages:</source>
        <translation>メッセージ数:</translation>
    </message>
    <message>
        <source>Mean rate:</source>
        <translation>平均レート:</translation>
    </message>
    <message>
        <source>%1 Hz</source>
        <translation>%1 Hz</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>Jitter (std. dev. of intervals):</source>
        <translation>ジッター（間隔の標準偏差）:</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Out-of-order writes:</source>
        <translation>順序の乱れた書き込み:</translation>
    </message>
    <message>
        <source>Zero header stamps:</source>
        <translation>header スタンプが 0:</translation>
    </message>
    <message>
        <source>Latency (log time − stamp):</source>
        <translation>遅延（記録時刻 − スタンプ）:</translation>
    </message>
    <message>
        <source>min %1 ms · median %2 ms · max %3 ms</source>
        <translation>最小 %1 ms · 中央値 %2 ms · 最大 %3 ms</translation>
    </message>
    <message>
        <source>Latency:</source>
        <translation>遅延:</translation>
    </message>
    <message>
        <source>this type has no header stamp</source>
        <translation>この型には header スタンプがありません</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Rate of the median interval:</source>
        <translation>中央値の間隔によるレート:</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::TfTreePanel</name>
    <message>
        <source>Frame</source>
        <translation>フレーム</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <source>Rate (Hz)</source>
        <translation>レート（Hz）</translation>
    </message>
    <message>
        <source>Last update (s)</source>
        <translation>最終更新（秒）</translation>
    </message>
    <message>
        <source>In its parent at the playhead</source>
        <translation>再生位置での親フレーム内の姿勢</translation>
    </message>
    <message>
        <source>Frame:</source>
        <translation>フレーム:</translation>
    </message>
    <message>
        <source>Relative to:</source>
        <translation>基準:</translation>
    </message>
    <message>
        <source>At the playhead:</source>
        <translation>再生位置:</translation>
    </message>
    <message>
        <source>This recording has no transforms.</source>
        <translation>この記録には座標変換がありません。</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>読み込み中…</translation>
    </message>
    <message>
        <source>static</source>
        <translation>静的</translation>
    </message>
    <message>
        <source>dynamic</source>
        <translation>動的</translation>
    </message>
    <message>
        <source>root</source>
        <translation>ルート</translation>
    </message>
    <message>
        <source>Choose two frames.</source>
        <translation>フレームを 2 つ選んでください。</translation>
    </message>
    <message>
        <source>No frame %1 in the transforms.</source>
        <translation>座標変換にフレーム %1 がありません。</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::TimelineWidget</name>
    <message>
        <source>time</source>
        <translation>時刻</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>Open a recording to see its messages over time.</source>
        <translation>記録を開くと、メッセージが時間順に表示されます。</translation>
    </message>
    <message>
        <source>Zoom to Fit</source>
        <translation>全体を表示</translation>
    </message>
    <message>
        <source>Zoom to Selected Range</source>
        <translation>選択範囲を拡大表示</translation>
    </message>
    <message>
        <source>Clear Selected Range</source>
        <translation>選択範囲を解除</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::TopicListPanel</name>
    <message>
        <source>Filter topics by name or type</source>
        <translation>名前または型でトピックを絞り込む</translation>
    </message>
    <message>
        <source>Copy Topic Name</source>
        <translation>トピック名をコピー</translation>
    </message>
    <message>
        <source>Stats…</source>
        <translation>統計…</translation>
    </message>
    <message>
        <source>Plot Field…</source>
        <translation>フィールドをグラフ表示…</translation>
    </message>
    <message>
        <source>Export This Topic…</source>
        <translation>このトピックを書き出す…</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::TopicModel</name>
    <message>
        <source>Messages of this topic cannot be decoded: %1</source>
        <translation>このトピックのメッセージはデコードできません: %1</translation>
    </message>
    <message>
        <source>Being measured in the background…</source>
        <translation>バックグラウンドで計測中…</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>トピック</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>型</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>メッセージ数</translation>
    </message>
    <message>
        <source>Rate (Hz)</source>
        <translation>レート (Hz)</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>サイズ</translation>
    </message>
    <message>
        <source>Only in run A</source>
        <translation>ラン A のみ</translation>
    </message>
    <message>
        <source>Only in run B</source>
        <translation>ラン B のみ</translation>
    </message>
    <message>
        <source>Run B&apos;s type: %1</source>
        <translation>ラン B の型：%1</translation>
    </message>
    <message>
        <source>Run B defines this type differently</source>
        <translation>ラン B ではこの型の定義が異なります</translation>
    </message>
    <message>
        <source>Messages B</source>
        <translation>メッセージ数 B</translation>
    </message>
    <message>
        <source>Rate B (Hz)</source>
        <translation>レート B (Hz)</translation>
    </message>
    <message>
        <source>Largest Gap (s)</source>
        <translation>最大間隔 (秒)</translation>
    </message>
    <message>
        <source>Largest Gap B (s)</source>
        <translation>最大間隔 B (秒)</translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::VtkView</name>
    <message>
        <source>The 3D view needs OpenGL 3.2, which this system lacks.</source>
        <translation>3D ビューには OpenGL 3.2 が必要ですが、このシステムにはありません。</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Opens ROS recordings without ROS.</source>
        <translation>ROS なしで ROS の記録を開きます。</translation>
    </message>
    <message>
        <source>user interface language for this run (en, zh_CN, ja_JP)</source>
        <translation>今回の起動で使う表示言語（en、zh_CN、ja_JP）</translation>
    </message>
    <message>
        <source>recordings or folders to open</source>
        <translation>開く記録ファイルまたはフォルダー</translation>
    </message>
</context>
</TS>
