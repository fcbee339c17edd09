// torch.einsum lowered to the ops autograd already knows: a label repeated
// within one operand takes its diagonal, a label no later operand or the
// output needs is summed out as early as it can be, and each pair of
// operands is contracted left to right by one batched matmul over
// [batch, kept-by-a, contracted] @ [batch, contracted, kept-by-b] (or a
// broadcast multiply when nothing is contracted). Labels of size 1
// broadcast against the others, as in PyTorch.
#include <algorithm>
#include <string>
#include <vector>

#include "ops/composite/composite.hpp"
#include "runtime/error.hpp"

namespace porta::composite {
namespace {

// Labels: 'A'-'Z' are 0-25, 'a'-'z' 26-51 (so implicit outputs sort as
// PyTorch's: uppercase first); ellipsis dims are 52, 53, ...
constexpr int kLetters = 52;
using Labels = std::vector<int>;

struct Operand {
  TensorPtr t;
  Labels labels;  // one per dim of t, each once
};

int letter_label(char c) { return c >= 'A' && c <= 'Z' ? c - 'A' : c - 'a' + 26; }
bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

std::string label_name(int l) {
  if (l >= kLetters) return "...";
  return std::string(1, static_cast<char>(l < 26 ? 'A' + l : 'a' + l - 26));
}

// One subscript term, eq[begin, end): letters (spaces ignored) with at most
// one "...", whose position is kept as -1.
Labels parse_term(const std::string& eq, size_t begin, size_t end, bool* has_ellipsis) {
  Labels raw;
  *has_ellipsis = false;
  for (size_t i = begin; i < end; ++i) {
    const char c = eq[i];
    if (c == ' ') continue;
    if (c == '.') {
      if (*has_ellipsis || i + 3 > end || eq.compare(i, 3, "...") != 0)
        fail(PORTA_ERROR_INVALID_ARGUMENT, "einsum(): found '.' for operand at index ", i,
             " that is not part of any ellipsis (or a second ellipsis in one term)");
      *has_ellipsis = true;
      raw.push_back(-1);
      i += 2;
      continue;
    }
    if (!is_letter(c))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "einsum(): invalid subscript given at index ", i,
           " in the equation string, subscripts must be in [a-zA-Z]");
    raw.push_back(letter_label(c));
  }
  return raw;
}

// raw labels with the ellipsis replaced by the last `count` of `width` ellipsis labels.
Labels expand_ellipsis(const Labels& raw, int32_t count, int32_t width) {
  Labels out;
  for (int l : raw) {
    if (l != -1) {
      out.push_back(l);
      continue;
    }
    for (int32_t i = width - count; i < width; ++i) out.push_back(kLetters + i);
  }
  return out;
}

// Operand `index` with each label once: a repeated label takes the diagonal.
Operand distinct_labels(size_t index, TensorPtr t, Labels labels) {
  for (size_t i = 0; i < labels.size(); ++i) {
    for (size_t j = i + 1; j < labels.size(); ++j) {
      if (labels[j] != labels[i]) continue;
      if (t->shape[static_cast<int32_t>(i)] != t->shape[static_cast<int32_t>(j)])
        fail(PORTA_ERROR_SHAPE_MISMATCH, "einsum(): subscript ", label_name(labels[i]), " is repeated for operand ",
             index, " but the sizes don't match, ", t->shape[static_cast<int32_t>(i)],
             " != ", t->shape[static_cast<int32_t>(j)]);
      t = ag::diagonal(t, 0, static_cast<int32_t>(i), static_cast<int32_t>(j));  // the pair becomes the last dim
      Labels kept;
      for (size_t k = 0; k < labels.size(); ++k)
        if (k != i && k != j) kept.push_back(labels[k]);
      kept.push_back(labels[i]);
      return distinct_labels(index, t, kept);
    }
  }
  return {t, labels};
}

bool contains(const Labels& ls, int l) { return std::find(ls.begin(), ls.end(), l) != ls.end(); }

// Sums op's labels that `keep` lacks.
Operand sum_out(Operand op, const Labels& keep) {
  std::vector<int32_t> dims;
  Labels left;
  for (size_t i = 0; i < op.labels.size(); ++i) {
    if (contains(keep, op.labels[i]))
      left.push_back(op.labels[i]);
    else
      dims.push_back(static_cast<int32_t>(i));
  }
  if (dims.empty()) return op;
  return {ag::reduce(PORTA_OP_SUM, op.t, dims.data(), static_cast<int32_t>(dims.size()), false), left};
}

// op's dims in the order of `order`; a label op lacks becomes a dim of size 1,
// and a dim of size 1 is expanded to sizes[label] when `expand` says so.
TensorPtr arrange(const Operand& op, const Labels& order, const std::vector<int64_t>& sizes,
                  const std::vector<bool>& expand) {
  std::vector<int32_t> perm;
  for (int l : order) {
    auto it = std::find(op.labels.begin(), op.labels.end(), l);
    if (it != op.labels.end()) perm.push_back(static_cast<int32_t>(it - op.labels.begin()));
  }
  TensorPtr t = ag::permute(op.t, perm.data(), static_cast<int32_t>(perm.size()));
  Dims shape, target;
  int32_t k = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    const int l = order[i];
    const int64_t own = contains(op.labels, l) ? t->shape[k++] : 1;
    shape.push_back(own);
    target.push_back(expand[i] ? sizes[static_cast<size_t>(l)] : own);
  }
  t = ag::reshape(t, shape);
  return target == shape ? t : ag::expand(t, target);
}

// The product of shape[from .. to).
int64_t product(const Dims& shape, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i) p *= shape[static_cast<int32_t>(i)];
  return p;
}

// a and b contracted over the labels they share that `later` does not need.
Operand contract(Operand a, Operand b, const Labels& later, const std::vector<int64_t>& sizes) {
  Labels keep_a = later, keep_b = later;
  keep_a.insert(keep_a.end(), b.labels.begin(), b.labels.end());
  keep_b.insert(keep_b.end(), a.labels.begin(), a.labels.end());
  a = sum_out(a, keep_a);
  b = sum_out(b, keep_b);
  Labels batch, only_a, only_b, summed;
  for (int l : a.labels) {
    if (!contains(b.labels, l))
      only_a.push_back(l);
    else if (contains(later, l))
      batch.push_back(l);
    else
      summed.push_back(l);
  }
  for (int l : b.labels)
    if (!contains(a.labels, l)) only_b.push_back(l);
  Labels out_labels = batch;
  out_labels.insert(out_labels.end(), only_a.begin(), only_a.end());
  out_labels.insert(out_labels.end(), only_b.begin(), only_b.end());
  if (summed.empty()) {  // nothing contracted: a broadcast product
    std::vector<bool> no(out_labels.size(), false);
    return {ag::binary(PORTA_OP_MUL, arrange(a, out_labels, sizes, no), arrange(b, out_labels, sizes, no)), out_labels};
  }
  Labels order_a = batch, order_b = batch;
  order_a.insert(order_a.end(), only_a.begin(), only_a.end());
  order_a.insert(order_a.end(), summed.begin(), summed.end());
  order_b.insert(order_b.end(), summed.begin(), summed.end());
  order_b.insert(order_b.end(), only_b.begin(), only_b.end());
  // Shared labels take their full size on both sides (a side of size 1 broadcasts).
  std::vector<bool> shared_a(order_a.size()), shared_b(order_b.size());
  for (size_t i = 0; i < order_a.size(); ++i) shared_a[i] = contains(b.labels, order_a[i]);
  for (size_t i = 0; i < order_b.size(); ++i) shared_b[i] = contains(a.labels, order_b[i]);
  TensorPtr ta = arrange(a, order_a, sizes, shared_a), tb = arrange(b, order_b, sizes, shared_b);
  const size_t nbatch = batch.size(), na = only_a.size(), nsum = summed.size();
  const int64_t nb = product(ta->shape, 0, nbatch), k = product(ta->shape, nbatch + na, nbatch + na + nsum);
  TensorPtr ma = ag::reshape(ta, Dims{nb, product(ta->shape, nbatch, nbatch + na), k});
  TensorPtr mb = ag::reshape(tb, Dims{nb, k, product(tb->shape, nbatch + nsum, order_b.size())});
  Dims shape;  // batch and kept sizes as arranged (a kept label of size 1 stays 1 until it meets its full size)
  for (size_t i = 0; i < nbatch + na; ++i) shape.push_back(ta->shape[static_cast<int32_t>(i)]);
  for (size_t i = nbatch + nsum; i < order_b.size(); ++i) shape.push_back(tb->shape[static_cast<int32_t>(i)]);
  return {ag::reshape(ag::matmul(ma, mb), shape), out_labels};
}

}  // namespace

TensorPtr einsum(const char* equation, const std::vector<TensorPtr>& operands) {
  require(equation, "equation");
  if (operands.empty()) fail(PORTA_ERROR_INVALID_ARGUMENT, "einsum(): must provide at least one operand");
  const std::string eq(equation);
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  // Terms of the left-hand side, with each ellipsis' width.
  std::vector<Labels> raw;
  std::vector<int32_t> ellipsis_dims;
  int32_t width = 0;
  size_t begin = 0;
  for (size_t i = 0; i <= lhs.size(); ++i) {
    if (i < lhs.size() && lhs[i] != ',') continue;
    const size_t n = raw.size();
    if (n >= operands.size())
      fail(PORTA_ERROR_INVALID_ARGUMENT, "einsum(): fewer operands were provided than specified in the equation");
    bool has_ellipsis = false;
    raw.push_back(parse_term(eq, begin, i, &has_ellipsis));
    const TensorPtr& t = operands[n];
    if (t->device != operands[0]->device)
      fail(PORTA_ERROR_DEVICE_MISMATCH, "einsum(): operand ", n, " is not on operand 0's device");
    if (t->dtype != operands[0]->dtype)
      fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "einsum(): operands must have one dtype; operand 0 is ",
           dtype_name(operands[0]->dtype), ", operand ", n, " is ", dtype_name(t->dtype));
    const int32_t letters = static_cast<int32_t>(raw.back().size()) - (has_ellipsis ? 1 : 0);
    if (has_ellipsis ? letters > t->ndim() : letters != t->ndim())
      fail(PORTA_ERROR_SHAPE_MISMATCH, "einsum(): the number of subscripts in the equation (", letters,
           ") does not match the number of dimensions (", t->ndim(), ") for operand ", n,
           has_ellipsis ? "" : " and no ellipsis was given");
    ellipsis_dims.push_back(has_ellipsis ? t->ndim() - letters : 0);
    width = std::max(width, ellipsis_dims.back());
    begin = i + 1;
  }
  if (raw.size() < operands.size())
    fail(PORTA_ERROR_INVALID_ARGUMENT, "einsum(): more operands were provided than specified in the equation");

  std::vector<int> occurrences(static_cast<size_t>(kLetters + width), 0);
  std::vector<int64_t> sizes(static_cast<size_t>(kLetters + width), 1);
  std::vector<Operand> ops_in;
  for (size_t n = 0; n < operands.size(); ++n) {
    Labels labels = expand_ellipsis(raw[n], ellipsis_dims[n], width);
    for (int l : labels) occurrences[static_cast<size_t>(l)]++;
    Operand op = distinct_labels(n, operands[n], labels);
    for (size_t i = 0; i < op.labels.size(); ++i) {
      int64_t& size = sizes[static_cast<size_t>(op.labels[i])];
      const int64_t own = op.t->shape[static_cast<int32_t>(i)];
      if (own != 1 && size != 1 && own != size)
        fail(PORTA_ERROR_SHAPE_MISMATCH, "einsum(): operands do not broadcast: subscript ", label_name(op.labels[i]),
             " has size ", size, " in an earlier operand and ", own, " in operand ", n);
      if (own != 1) size = own;
    }
    ops_in.push_back(op);
  }

  Labels output;
  if (arrow == std::string::npos) {  // implicit: the ellipsis, then the letters used once, sorted
    for (int32_t i = 0; i < width; ++i) output.push_back(kLetters + i);
    for (int l = 0; l < kLetters; ++l)
      if (occurrences[static_cast<size_t>(l)] == 1) output.push_back(l);
  } else {
    bool has_ellipsis = false;
    const Labels rhs = parse_term(eq, arrow + 2, eq.size(), &has_ellipsis);
    output = expand_ellipsis(rhs, width, width);
    for (size_t i = 0; i < rhs.size(); ++i) {
      const int l = rhs[i];
      if (l == -1) continue;
      if (occurrences[static_cast<size_t>(l)] == 0)
        fail(PORTA_ERROR_INVALID_ARGUMENT, "einsum(): output subscript ", label_name(l),
             " does not appear in the equation for any input operand");
      if (std::count(rhs.begin(), rhs.end(), l) > 1)
        fail(PORTA_ERROR_INVALID_ARGUMENT, "einsum(): output subscript ", label_name(l),
             " appears more than once in the output");
    }
  }

  Operand acc = ops_in[0];
  for (size_t n = 1; n < ops_in.size(); ++n) {
    Labels later = output;
    for (size_t m = n + 1; m < ops_in.size(); ++m)
      later.insert(later.end(), ops_in[m].labels.begin(), ops_in[m].labels.end());
    acc = contract(acc, ops_in[n], later, sizes);
  }
  acc = sum_out(acc, output);
  // A label of size 1 in the operands left may still need its full size (e.g. "i,i->i" with [1] and [3]).
  std::vector<bool> full(output.size(), true);
  return ag::contiguous(arrange(acc, output, sizes, full));
}

}  // namespace porta::composite
