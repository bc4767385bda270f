#include "decoding/repetition_guard.h"

namespace crossattn {

void repeated_span_tokens(const int* tail, int n, int repeat_limit, std::vector<int>& banned) {
  for (int p = 1; p <= kMaxRepeatSpan; ++p) {
    const int run = p * (repeat_limit + 1) - 1;  // tokens of the run before the candidate
    if (run > n) break;
    const int* y = tail + n - run;  // y[0 .. run - 1], then the candidate y[run] = y[run - p]
    bool periodic = true;
    for (int j = p; j < run && periodic; ++j) periodic = y[j] == y[j - p];
    if (periodic) banned.push_back(y[run - p]);
  }
}

}  // namespace crossattn
