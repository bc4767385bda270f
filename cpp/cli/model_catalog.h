// The model catalog of a folder: which shipped model translates which direction by default, for
// `crossattn-cli translate --from L --to L`. It is models/catalog.json, which the page and the npm
// CLI read too (bindings/src/model-catalog.ts), so that every front end picks the same file.
#pragma once

#include <string>
#include <vector>

namespace crossattn {

/// One direction of the catalog.
struct CatalogEntry {
  std::string source_lang;  // ISO 639-1, as in the model's config, e.g. "en"
  std::string target_lang;  // e.g. "de"
  std::string model;        // path of the model file: the folder joined with the catalog's file name
};

/// The directions listed in `dir`/catalog.json, in the catalog's order. Raises Error(kInvalidInput)
/// if the file is missing or is not a catalog (an object with a "directions" array of objects
/// with string fields source_lang, target_lang and model).
std::vector<CatalogEntry> read_catalog(const std::string& dir);

/// The catalog entry of `dir` that translates `from` into `to`. Raises Error(kInvalidInput), naming
/// the directions that are available, when there is none.
CatalogEntry model_for(const std::string& dir, const std::string& from, const std::string& to);

}  // namespace crossattn
