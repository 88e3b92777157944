#include "journal/format.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace petstore::tools::journal {
namespace {

struct Owned {
  std::int64_t offset = 0;
  std::int64_t timestamp_ms = 0;
  std::optional<std::string> key, value;
  std::vector<std::pair<std::string, std::optional<std::string>>> headers;
  bool operator==(const Owned&) const = default;
};

Owned own(const RecordView& r) {
  Owned o{r.offset, r.timestamp_ms, {}, {}, {}};
  if (r.key)
    o.key = std::string(*r.key);
  if (r.value)
    o.value = std::string(*r.value);
  for (const auto& h : r.headers) {
    o.headers.emplace_back(std::string(h.name),
                           h.value ? std::optional<std::string>(std::string(*h.value)) : std::nullopt);
  }
  return o;
}

std::vector<Owned> read_all(std::string_view file, ScanResult* result = nullptr) {
  std::vector<Owned> out;
  const auto r = scan(file, [&](const RecordView& v) { out.push_back(own(v)); });
  if (result != nullptr)
    *result = r;
  return out;
}

std::string journal_of(const std::vector<RecordView>& records) {
  std::string file(kMagic);
  for (const auto& r : records)
    append_frame(r, file);
  return file;
}

RecordView record(std::int64_t offset) {
  RecordView r;
  r.offset = offset;
  r.timestamp_ms = 1795404725823 + offset;
  r.key = "pet-42";
  r.value = R"({"id":42})";
  r.headers = {{"ce_id", "abc"}, {"ce_type", "io.petstore.pet.created"}};
  return r;
}

TEST(JournalFormat, RecordsComeBackExactlyWithNullsKeptApartFromEmpties) {
  RecordView nulls;
  nulls.offset = 1;
  nulls.timestamp_ms = -1;
  RecordView empties;
  empties.offset = 2;
  empties.key = "";
  empties.value = "";
  empties.headers = {{"", std::nullopt}, {"h", ""}};
  std::string binary("a\0b\xff", 4);
  RecordView bin = record(3);
  bin.value = binary;
  const auto file = journal_of({record(0), nulls, empties, bin});

  ScanResult result;
  const auto got = read_all(file, &result);
  EXPECT_TRUE(result.problem.empty()) << result.problem;
  EXPECT_EQ(result.records, 4U);
  EXPECT_EQ(result.valid_bytes, file.size());
  ASSERT_EQ(got.size(), 4U);
  EXPECT_EQ(got[0], own(record(0)));
  EXPECT_EQ(got[1], own(nulls));
  EXPECT_FALSE(got[1].key.has_value());
  EXPECT_EQ(got[2], own(empties));
  EXPECT_TRUE(got[2].key.has_value());
  EXPECT_FALSE(got[2].headers[0].second.has_value());
  EXPECT_EQ(got[3].value, binary);
}

TEST(JournalFormat, AnEmptyJournalIsTheMagicAlone) {
  ScanResult result;
  EXPECT_TRUE(read_all(kMagic, &result).empty());
  EXPECT_TRUE(result.problem.empty());
  EXPECT_EQ(result.valid_bytes, kMagic.size());
}

TEST(JournalFormat, AFileWithoutTheMagicIsNoJournal) {
  ScanResult result;
  read_all("PSJRNL02", &result);
  EXPECT_FALSE(result.problem.empty());
  EXPECT_EQ(result.valid_bytes, 0U);
}

TEST(JournalFormat, EveryCutThroughTheLastFrameKeepsTheFramesBefore) {
  const auto two = journal_of({record(0), record(1)});
  const auto one = journal_of({record(0)});
  for (std::size_t cut = one.size() + 1; cut < two.size(); ++cut) {
    ScanResult result;
    const auto got = read_all(std::string_view(two).substr(0, cut), &result);
    ASSERT_EQ(got.size(), 1U) << "cut at " << cut;
    EXPECT_EQ(result.valid_bytes, one.size());
    EXPECT_NE(result.problem.find("torn"), std::string::npos) << result.problem;
  }
}

TEST(JournalFormat, AFlippedBitStopsTheScanAtItsFrame) {
  auto file = journal_of({record(0), record(1), record(2)});
  const auto one = journal_of({record(0)}).size();
  file[one + 30] ^= 0x04;
  ScanResult result;
  const auto got = read_all(file, &result);
  EXPECT_EQ(got.size(), 1U);
  EXPECT_EQ(result.valid_bytes, one);
  EXPECT_NE(result.problem.find("CRC"), std::string::npos) << result.problem;
}

TEST(JournalFormat, OffsetsMustCountFromZeroWithoutAGap) {
  for (const auto& records :
       {std::vector<RecordView>{record(1)}, std::vector<RecordView>{record(0), record(2)},
        std::vector<RecordView>{record(0), record(0)}}) {
    ScanResult result;
    const auto file = journal_of(records);
    const auto got = read_all(file, &result);
    EXPECT_EQ(got.size(), records.size() - 1);
    EXPECT_NE(result.problem.find("offset"), std::string::npos) << result.problem;
  }
}

}  // namespace
}  // namespace petstore::tools::journal
