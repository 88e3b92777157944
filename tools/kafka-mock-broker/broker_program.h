#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "journal/recorder.h"
#include "journal/store.h"
#include "mock_cluster.h"

namespace petstore::tools {

// The broker program's parts, wired: librdkafka's mock cluster, and with a
// data directory, the journal that keeps its log on disk (docs/local-log.md):
// restored into the cluster before anyone is told where it is, and recorded
// from then on.
class BrokerProgram {
 public:
  // Creates the cluster and `topics` (with the journal's own topics too),
  // and with `data_dir` restores the journal and starts recording.
  BrokerProgram(int brokers, const std::vector<journal::TopicSpec>& topics,
                const std::optional<std::filesystem::path>& data_dir);
  ~BrokerProgram();
  BrokerProgram(const BrokerProgram&) = delete;
  BrokerProgram& operator=(const BrokerProgram&) = delete;

  [[nodiscard]] MockCluster& cluster() { return cluster_; }
  void create_topic(const std::string& name, int partitions);
  // Empty while sound; otherwise what the journal could not do.
  [[nodiscard]] std::string problem() const;
  // Journals everything the cluster holds and syncs it: the clean stop.
  void stop();

 private:
  MockCluster cluster_;
  std::unique_ptr<journal::Store> store_;
  std::unique_ptr<journal::Recorder> recorder_;
};

// Reads a topics file: lines of "<topic> <partitions>", '#' starts a comment
// (schemas/topics.txt).
std::vector<journal::TopicSpec> read_topics_file(const std::string& path);

}  // namespace petstore::tools
