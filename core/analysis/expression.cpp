// Custom expressions over series, evaluated by muparser one sample at a time: its bytecode
// runs in tens of nanoseconds, steadier than its OpenMP bulk mode on a busy machine.

#include <muParser.h>

#include "derive.hpp"

namespace bagscope::analysis {

Result<std::vector<double>> evaluateExpression(std::string_view expression, std::span<const std::string> names,
                                               std::span<const SeriesView> inputs) {
  if (inputs.empty() || names.size() != inputs.size())
    return makeError(ErrorCode::InvalidArgument, "an expression needs a series per variable");
  const auto base = inputs.front();
  const std::size_t n = base.t.size();
  // The variables' columns, aligned to the first series' times.
  std::vector<std::vector<double>> columns;
  columns.emplace_back(base.v.begin(), base.v.end());
  for (std::size_t k = 1; k < inputs.size(); ++k) columns.push_back(valuesAt(inputs[k].t, inputs[k].v, base.t));
  std::vector<double> row(names.size() + 1, 0.0), out(n);  // the variables of one sample, `t` last
  try {
    mu::Parser parser;
    for (std::size_t k = 0; k < names.size(); ++k) parser.DefineVar(names[k], &row[k]);
    parser.DefineVar("t", &row.back());
    parser.SetExpr(std::string(expression));
    parser.Eval();  // parsed and checked even when there are no samples
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t k = 0; k < columns.size(); ++k) row[k] = columns[k][i];
      row.back() = base.t[i];
      out[i] = parser.Eval();
    }
  } catch (const mu::Parser::exception_type& e) {
    std::string where = e.GetPos() >= 0 ? " at column " + std::to_string(e.GetPos() + 1) : std::string();
    return makeError(ErrorCode::InvalidArgument,
                     "expression '" + std::string(expression) + "'" + where + ": " + e.GetMsg());
  }
  return out;
}

}  // namespace bagscope::analysis
