#include "result_value.h"

#include <cctype>
#include <type_traits>

namespace crossattn_bindings {

using emscripten::val;

namespace {

template <typename T>
val to_array(const std::vector<T>& items) {
  val array = val::array();
  for (size_t i = 0; i < items.size(); ++i) array.set(i, items[i]);
  return array;
}

// A copy out of the wasm heap (slice), so that the result survives later heap growth; null if empty.
val floats(const std::vector<float>& v) {
  return v.empty() ? val::null() : val(emscripten::typed_memory_view(v.size(), v.data())).call<val>("slice");
}

val hypothesis_value(const crossattn::ScoredHypothesis& h);

// One field's value: the conversion follows the C++ type of the member.
template <typename R, typename T>
val field_value(const R& r, T R::*member) {
  const T& v = r.*member;
  if constexpr (std::is_same_v<T, std::vector<float>>) {
    return floats(v);
  } else if constexpr (std::is_same_v<T, std::vector<crossattn::ScoredHypothesis>>) {
    val array = val::array();
    for (size_t i = 0; i < v.size(); ++i) array.set(i, hypothesis_value(v[i]));
    return array;
  } else if constexpr (std::is_same_v<T, std::optional<crossattn::WordAlignment>>) {
    return v ? alignment_value(*v) : val::null();
  } else if constexpr (std::is_same_v<T, std::vector<std::string>> || std::is_same_v<T, std::vector<int>>) {
    return to_array(v);
  } else {
    return val(v);
  }
}

// An object with every field of `fields` of `r`, by JavaScript name.
template <typename R>
val object_value(const R& r, const std::vector<crossattn::ResultField<R>>& fields) {
  val out = val::object();
  for (const crossattn::ResultField<R>& f : fields) {
    out.set(camel_case(f.name), std::visit([&](auto member) { return field_value(r, member); }, f.member));
  }
  return out;
}

val hypothesis_value(const crossattn::ScoredHypothesis& h) { return object_value(h, crossattn::hypothesis_fields()); }

// The type of a member, in the words of result_fields().
template <typename R, typename T>
const char* type_name(T R::*) {
  if constexpr (std::is_same_v<T, std::string>) return "string";
  if constexpr (std::is_same_v<T, std::vector<std::string>>) return "string[]";
  if constexpr (std::is_same_v<T, std::vector<int>>) return "int[]";
  if constexpr (std::is_same_v<T, std::vector<float>>) return "float[]";
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, int>) return "int";
  if constexpr (std::is_same_v<T, std::vector<crossattn::ScoredHypothesis>>) return "hypotheses";
  return "alignment";
}

template <typename R>
val table_value(const std::vector<crossattn::ResultField<R>>& fields) {
  static const char* const presence[] = {"always", "on request", "shape"};
  val out = val::array();
  for (size_t i = 0; i < fields.size(); ++i) {
    const crossattn::ResultField<R>& f = fields[i];
    val one = val::object();
    one.set("name", std::string(f.name));
    one.set("jsName", camel_case(f.name));
    one.set("type", std::string(std::visit([](auto member) { return type_name(member); }, f.member)));
    one.set("shape", std::string(f.shape));
    one.set("presence", std::string(presence[static_cast<int>(f.presence)]));
    one.set("doc", std::string(f.doc));
    one.set("fromHypothesis", f.from_hypothesis);
    out.set(i, one);
  }
  return out;
}

}  // namespace

std::string camel_case(const std::string& name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    const bool upper = name[i] == '_' && i + 1 < name.size();
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(name[++i]))) : name[i];
  }
  return out;
}

val alignment_value(const crossattn::WordAlignment& a) {
  val out = val::object();
  out.set("srcLen", a.src_len);
  out.set("tgtLen", a.tgt_len);
  out.set("weights", floats(a.weights));
  val links = val::array();
  for (size_t i = 0; i < a.links.size(); ++i) links.set(i, to_array(std::vector<int>{a.links[i].first, a.links[i].second}));
  out.set("links", links);
  return out;
}

val translation_value(const crossattn::Translation& r) { return object_value(r, crossattn::translation_fields()); }

val result_fields() {
  val out = val::object();
  out.set("hypothesis", table_value(crossattn::hypothesis_fields()));
  out.set("translation", table_value(crossattn::translation_fields()));
  return out;
}

}  // namespace crossattn_bindings
