// The category rule on the log (docs/consistency.md, "The category rule"):
// a pet joins a category through the category's writer, which orders every
// joining pet against the category's deletion. Two pets replicas, so a
// pet's owner and its category's owner are often not the same replica and
// the admission is relayed between them.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/http_json.h"
#include "support/service_process.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

struct Logged {
  std::string type;
  std::int64_t subject = 0;
  std::string data;
};

std::vector<Logged> events(const std::string& topic) {
  std::vector<Logged> out;
  for (const auto& m : read_topic(topic)) {
    const auto* type = m.header("ce_type");
    const auto* subject = m.header("ce_subject");
    if (type != nullptr && subject != nullptr) {
      out.push_back({*type, std::stoll(*subject), m.value});
    }
  }
  return out;
}

std::int64_t integer_member(const std::string& data, const char* name) {
  return parse(data)[name].GetInt64();
}

std::string pet_body(const std::string& name, std::int64_t category) {
  return R"({"name":")" + name + R"(","categoryId":)" + std::to_string(category) + "}";
}

// A client's delete, asked again while the answer is 503.
httplib::Result delete_retrying(httplib::Client& http, const std::string& path) {
  auto r = http.Delete(path);
  for (int attempt = 0; attempt < 10 && r && r->status == 503; ++attempt) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    r = http.Delete(path);
  }
  return r;
}

// Pets created in a category while it is deleted, over both replicas: the
// delete is refused, or every create that came after it is; no pet ever
// lives in a deleted category, and every pet in one was admitted first.
TEST(CategoryRule, PetsCreatedWhileTheirCategoryIsDeletedAreRefusedOrRefuseTheDelete) {
  PetsDeployment pets(2);
  std::map<int, int> deletes;  // status -> count
  std::set<std::int64_t> created_in_deleted;
  for (int round = 0; round < 16; ++round) {
    // Even rounds: the creates first, the delete up to 30 ms after; odd
    // rounds: the delete first, the creates 5 to 20 ms after.
    const auto creates_after = std::chrono::milliseconds(round % 2 == 1 ? 5 * (1 + round % 4) : 0);
    const auto delete_after = std::chrono::milliseconds(round % 2 == 0 ? 10 * (round % 4) : 0);
    auto setup = pets.replica(0).client();
    const auto category =
        id_of(post_retrying(*setup, "/categories", R"({"name":"Race"})", unique_name("race-category")));
    ASSERT_GT(category, 0);
    std::mutex mu;
    std::vector<std::int64_t> created;
    std::vector<std::thread> creating;
    creating.reserve(4);
    for (int k = 0; k < 4; ++k) {
      creating.emplace_back([&, k] {
        auto http = pets.replica(static_cast<size_t>(k) % pets.size()).client();
        std::this_thread::sleep_for(creates_after);
        const auto r = post_json(*http, "/pets", pet_body("racer", category));
        ASSERT_TRUE(r);
        ASSERT_TRUE(r->status == 201 || r->status == 422) << r->status << " " << r->body;
        if (r->status == 201) {
          const std::lock_guard lock(mu);
          created.push_back(id_of(r));
        } else {
          EXPECT_EQ(error_code(r), "unknown_category");
        }
      });
    }
    auto http = pets.replica(1).client();
    std::this_thread::sleep_for(delete_after);
    const auto r = delete_retrying(*http, "/categories/" + std::to_string(category));
    for (auto& t : creating) {
      t.join();
    }
    ASSERT_TRUE(r);
    ASSERT_TRUE(r->status == 204 || r->status == 409) << r->status << " " << r->body;
    if (r->status == 409) {
      EXPECT_EQ(error_code(r), "category_in_use");
    }
    ++deletes[r->status];
    if (r->status == 204) {
      created_in_deleted.insert(created.begin(), created.end());
    }
  }
  EXPECT_TRUE(created_in_deleted.empty()) << "pets created in a category whose delete answered 204";
  EXPECT_GT(deletes[204], 0) << "no delete won a race: the run shows nothing";
  EXPECT_GT(deletes[409], 0) << "no create won a race: the run shows nothing";

  // The log: every pet in a category was admitted to it first, at its
  // version; no pet names a deleted category.
  std::set<std::int64_t> deleted;
  std::set<std::pair<std::int64_t, std::int64_t>> admitted;  // category, pet
  for (const auto& e : events(pets.categories_topic())) {
    if (e.type == "io.petstore.category.deleted") {
      deleted.insert(e.subject);
    } else if (e.type == "io.petstore.category.pets_admitted") {
      EXPECT_FALSE(deleted.contains(e.subject)) << "an admission after the category's deletion";
      const auto data = parse(e.data);
      for (const auto& pet : data["pets"].GetArray()) {
        admitted.insert({e.subject, pet["petId"].GetInt64()});
        EXPECT_EQ(pet["petVersion"].GetInt64(), 1);
      }
    }
  }
  int pets_created = 0;
  for (const auto& e : events(pets.pets_topic())) {
    if (e.type == "io.petstore.pet.created") {
      const auto category = integer_member(e.data, "categoryId");
      ++pets_created;
      EXPECT_TRUE(admitted.contains({category, e.subject})) << "pet " << e.subject << " was not admitted";
      EXPECT_FALSE(deleted.contains(category)) << "pet " << e.subject << " lives in a deleted category";
    }
  }
  EXPECT_GT(pets_created, 0);
  std::printf("deletes: %d x 204, %d x 409; %d pets created\n", deletes[204], deletes[409], pets_created);
}

// A delete waits only for pets it cannot see yet: once its pets have
// moved on, a category is deleted at once, and the one they moved to is
// in use.
TEST(CategoryRule, ACategoryWhosePetsMovedOnIsDeletedAtOnce) {
  PetsDeployment pets(2);
  auto http = pets.replica(0).client();
  const auto from = id_of(post_retrying(*http, "/categories", R"({"name":"From"})", unique_name("from")));
  const auto to = id_of(post_retrying(*http, "/categories", R"({"name":"To"})", unique_name("to")));
  const auto pet = id_of(post_retrying(*http, "/pets", pet_body("mover", from), unique_name("mover")));
  ASSERT_GT(pet, 0);
  auto other = pets.replica(1).client();
  const auto moved = put_json(*other, "/pets/" + std::to_string(pet), pet_body("mover", to));
  ASSERT_TRUE(moved);
  ASSERT_EQ(moved->status, 200) << moved->body;
  EXPECT_EQ(parse(moved->body)["categoryId"].GetInt64(), to);

  const auto in_use = delete_retrying(*other, "/categories/" + std::to_string(to));
  ASSERT_TRUE(in_use);
  EXPECT_EQ(in_use->status, 409) << in_use->body;
  EXPECT_EQ(error_code(in_use), "category_in_use");
  EXPECT_FALSE(in_use->has_header("Retry-After")) << "the pet has landed: nothing to wait for";
  const auto gone = delete_retrying(*other, "/categories/" + std::to_string(from));
  ASSERT_TRUE(gone);
  EXPECT_EQ(gone->status, 204) << gone->body;

  const auto back = put_json(*http, "/pets/" + std::to_string(pet), pet_body("mover", from));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->status, 422) << back->body;
  EXPECT_EQ(error_code(back), "unknown_category");
}

}  // namespace
}  // namespace petstore::testing
