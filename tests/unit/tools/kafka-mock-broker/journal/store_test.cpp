#include "journal/store.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace petstore::tools::journal {
namespace {
namespace fs = std::filesystem;

class JournalStore : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("journal-store-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string frames(std::int64_t first, std::int64_t count) {
    std::string out;
    for (auto o = first; o < first + count; ++o) {
      const auto value = "v" + std::to_string(o);
      RecordView r;
      r.offset = o;
      r.value = value;
      append_frame(r, out);
    }
    return out;
  }

  static std::vector<std::string> values(Store& store, const std::string& topic, std::int32_t partition) {
    std::vector<std::string> out;
    store.load(topic, partition, [&](const RecordView& r) { out.emplace_back(*r.value); });
    return out;
  }

  fs::path dir_;
};

TEST_F(JournalStore, RecordsAndTopicsSurviveAReopen) {
  {
    Store store(dir_);
    store.record_topic({"a.v1", 2});
    store.record_topic({"b.v1", 1});
    store.record_topic({"a.v1", 2});  // again: nothing new
    store.append("a.v1", 1, frames(0, 2));
    store.append("a.v1", 1, frames(2, 1));
    store.sync();
  }
  Store store(dir_);
  EXPECT_EQ(store.topics(), (std::vector<TopicSpec>{{"a.v1", 2}, {"b.v1", 1}}));
  EXPECT_EQ(values(store, "a.v1", 1), (std::vector<std::string>{"v0", "v1", "v2"}));
  EXPECT_TRUE(values(store, "a.v1", 0).empty());
}

TEST_F(JournalStore, ATopicKeepsItsPartitionCount) {
  Store store(dir_);
  store.record_topic({"a.v1", 2});
  EXPECT_THROW(store.record_topic({"a.v1", 3}), std::runtime_error);
}

TEST_F(JournalStore, TopicNamesAreKafkasAndSafeAsFileNames) {
  Store store(dir_);
  for (const auto* bad : {"", ".", "..", "a/b", "../x", "a b", "a\nb"}) {
    EXPECT_THROW(store.record_topic({bad, 1}), std::runtime_error) << bad;
  }
  EXPECT_THROW(store.record_topic({"ok", 0}), std::runtime_error);
  EXPECT_TRUE(store.topics().empty());
}

TEST_F(JournalStore, ADamagedTailIsCutOffAndKeptAside) {
  {
    Store store(dir_);
    store.record_topic({"a.v1", 1});
    store.append("a.v1", 0, frames(0, 3));
    store.sync();
  }
  const auto file = dir_ / "journal" / "a.v1" / "0.log";
  const auto good = fs::file_size(file);
  {
    std::ofstream out(file, std::ios::binary | std::ios::app);
    out << frames(3, 1).substr(0, 11);  // a crash in the middle of a write
  }
  {
    Store store(dir_);
    EXPECT_EQ(values(store, "a.v1", 0), (std::vector<std::string>{"v0", "v1", "v2"}));
    EXPECT_EQ(fs::file_size(file), good);
    int aside = 0;
    for (const auto& e : fs::directory_iterator(file.parent_path())) {
      if (e.path().filename().string().starts_with("0.log.damaged-")) {
        ++aside;
        EXPECT_EQ(fs::file_size(e.path()), 11U);
      }
    }
    EXPECT_EQ(aside, 1);
    // Appending after the cut continues the good prefix.
    store.append("a.v1", 0, frames(3, 1));
    store.sync();
  }
  Store store(dir_);
  EXPECT_EQ(values(store, "a.v1", 0), (std::vector<std::string>{"v0", "v1", "v2", "v3"}));
}

TEST_F(JournalStore, AFileThatIsNoJournalIsNotTouched) {
  fs::create_directories(dir_ / "journal" / "a.v1");
  { std::ofstream(dir_ / "journal" / "a.v1" / "0.log") << "not a journal"; }
  Store store(dir_);
  EXPECT_THROW(values(store, "a.v1", 0), std::runtime_error);
  std::ifstream in(dir_ / "journal" / "a.v1" / "0.log");
  std::stringstream all;
  all << in.rdbuf();
  EXPECT_EQ(all.str(), "not a journal");
}

}  // namespace
}  // namespace petstore::tools::journal
