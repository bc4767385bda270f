#include "cli/model_catalog.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "error.h"

namespace crossattn {

std::vector<CatalogEntry> read_catalog(const std::string& dir) {
  const std::string path = dir + "/catalog.json";
  std::ifstream in(path);
  if (!in) throw Error(ErrorCode::kInvalidInput, "cannot read the model catalog " + path);
  std::vector<CatalogEntry> entries;
  try {
    const auto catalog = nlohmann::json::parse(in);  // kept alive: at() returns a reference into it
    for (const auto& d : catalog.at("directions")) {
      entries.push_back({d.at("source_lang").get<std::string>(), d.at("target_lang").get<std::string>(),
                         dir + "/" + d.at("model").get<std::string>()});
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorCode::kInvalidInput, "invalid model catalog " + path + ": " + e.what());
  }
  return entries;
}

CatalogEntry model_for(const std::string& dir, const std::string& from, const std::string& to) {
  const auto entries = read_catalog(dir);
  std::string available;
  for (const auto& e : entries) {
    if (e.source_lang == from && e.target_lang == to) return e;
    available += (available.empty() ? "" : ", ") + e.source_lang + "→" + e.target_lang;
  }
  throw Error(ErrorCode::kInvalidInput, "no model translates " + from + " to " + to + " in " + dir +
                                            " (available: " + (available.empty() ? "none" : available) + ")");
}

}  // namespace crossattn
