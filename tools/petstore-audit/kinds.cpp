// The registry of kinds: every module's, each given its index.
#include <algorithm>
#include <cctype>
#include <iterator>
#include <stdexcept>

#include "kind_module.h"

namespace petstore::audit {

const std::vector<const CheckModule*>& check_modules() {
  static const auto kAll = [] {
    auto all = service_check_modules();
    all.push_back(&keys_checks());
    return all;
  }();
  return kAll;
}

const std::vector<RegisteredKind>& kinds() {
  static const auto kAll = [] {
    std::vector<RegisteredKind> all;
    const auto& modules = check_modules();
    for (std::size_t m = 0; m < modules.size(); ++m) {
      for (const auto& k : modules[m]->kinds) {
        constexpr std::string_view kStem = "petstore.";
        constexpr std::string_view kVersion = ".v1";
        if (!k.topic.starts_with(kStem) || !k.topic.ends_with(kVersion)) {
          throw std::logic_error("a kind's topic is petstore.<name>.v1, not " + std::string(k.topic));
        }
        const auto name = k.topic.substr(kStem.size(), k.topic.size() - kStem.size() - kVersion.size());
        std::string env = "KAFKA_TOPIC_";
        std::ranges::transform(name, std::back_inserter(env),
                               [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
        all.push_back({k, static_cast<Kind>(all.size()), m, std::move(env), "--topic-" + std::string(name)});
      }
    }
    return all;
  }();
  return kAll;
}

std::optional<Kind> kind_named(std::string_view name) {
  for (const auto& k : kinds()) {
    if (k.name == name) {
      return k.kind;
    }
  }
  return std::nullopt;
}

}  // namespace petstore::audit
