#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "audit_event.h"
#include "kind_module.h"
#include "view_module.h"

namespace petstore::audit {
namespace {

// The topics of schemas/topics.txt, the list every deployment creates.
std::set<std::string> contract_topics() {
  std::ifstream in(std::string(PETSTORE_SOURCE_DIR) + "/schemas/topics.txt");
  std::set<std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') {
      std::istringstream words(line);
      std::string name;
      words >> name;
      out.insert(name);
    }
  }
  return out;
}

// Every topic of the contract is some module's kind, and every kind's
// default topic is in the contract: a service that leaves out its audit
// module, or names a topic the deployments do not create, fails here.
TEST(Kinds, TheModulesNameEveryTopicOfTheContractOnce) {
  std::set<std::string> named;
  for (const auto& k : kinds()) {
    EXPECT_TRUE(named.insert(std::string(k.topic)).second) << k.topic << " is two kinds'";
  }
  EXPECT_EQ(named, contract_topics());
}

TEST(Kinds, EachHasItsIndexANameAndFlagsOfItsOwn) {
  std::set<std::string_view> names;
  std::set<std::string_view> flags;
  for (size_t i = 0; i < kinds().size(); ++i) {
    const auto& k = kinds()[i];
    EXPECT_EQ(static_cast<size_t>(k.kind), i);
    EXPECT_EQ(kind_named(k.name), k.kind);
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    EXPECT_TRUE(flags.insert(k.topic_flag).second) << k.topic_flag;
    if (!k.target_flag.empty()) {
      EXPECT_TRUE(flags.insert(k.target_flag).second) << k.target_flag;
    }
    EXPECT_LT(k.module, check_modules().size());
  }
  EXPECT_FALSE(kind_named("no such kind"));
}

// Each reference names a kind there is, and every kind has the view that
// rebuild folds its topic with.
TEST(Kinds, ReferencesNameKindsAndEveryKindHasAView) {
  for (const auto& k : kinds()) {
    for (const auto& r : k.references) {
      EXPECT_TRUE(kind_named(r.kind)) << k.name << " names " << r.kind;
    }
    const auto* view = view_of(k.kind);
    ASSERT_NE(view, nullptr) << k.name;
    EXPECT_NE(view->read_model, nullptr) << k.name;
  }
}

}  // namespace
}  // namespace petstore::audit
