// Custom expressions over series, evaluated by muparser in its bulk mode: every variable is
// an array of one value per sample, and one call evaluates them all.

#include <muParser.h>

#include <algorithm>

#include "derive.hpp"

namespace bagscope::analysis {

Result<std::vector<double>> evaluateExpression(std::string_view expression, std::span<const std::string> names,
                                               std::span<const SeriesView> inputs) {
  if (inputs.empty() || names.size() != inputs.size())
    return makeError(ErrorCode::InvalidArgument, "an expression needs a series per variable");
  const auto base = inputs.front();
  const std::size_t n = base.t.size();
  // The variables' columns, aligned to the first series' times; `t` last.
  std::vector<std::vector<double>> columns;
  columns.emplace_back(base.v.begin(), base.v.end());
  for (std::size_t k = 1; k < inputs.size(); ++k) columns.push_back(valuesAt(inputs[k].t, inputs[k].v, base.t));
  columns.emplace_back(base.t.begin(), base.t.end());
  for (auto& c : columns) c.resize(std::max<std::size_t>(n, 1), 0);  // muparser reads one value to check
  std::vector<double> out(n);
  try {
    mu::Parser parser;
    for (std::size_t k = 0; k < names.size(); ++k) parser.DefineVar(names[k], columns[k].data());
    parser.DefineVar("t", columns.back().data());
    parser.SetExpr(std::string(expression));
    if (n > 0) parser.Eval(out.data(), static_cast<int>(n));
    else parser.Eval();  // still checked
  } catch (const mu::Parser::exception_type& e) {
    std::string where = e.GetPos() >= 0 ? " at column " + std::to_string(e.GetPos() + 1) : std::string();
    return makeError(ErrorCode::InvalidArgument,
                     "expression '" + std::string(expression) + "'" + where + ": " + e.GetMsg());
  }
  return out;
}

}  // namespace bagscope::analysis
