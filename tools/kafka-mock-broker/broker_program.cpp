#include "broker_program.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "journal/restore.h"
#include "log/log.h"

namespace petstore::tools {

std::vector<journal::TopicSpec> read_topics_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw std::runtime_error("cannot read topics file " + path);
  }
  std::vector<journal::TopicSpec> out;
  std::string line;
  while (std::getline(in, line)) {
    if (const auto hash = line.find('#'); hash != std::string::npos) {
      line.resize(hash);
    }
    std::istringstream fields(line);
    journal::TopicSpec t;
    if (fields >> t.name >> t.partitions) {
      out.push_back(t);
    }
  }
  return out;
}

BrokerProgram::BrokerProgram(int brokers, const std::vector<journal::TopicSpec>& topics,
                             const std::optional<std::filesystem::path>& data_dir)
    : cluster_(brokers) {
  auto all = topics;
  if (data_dir) {
    store_ = std::make_unique<journal::Store>(*data_dir);
    for (const auto& t : store_->topics()) {
      if (std::ranges::find(all, t.name, &journal::TopicSpec::name) == all.end()) {
        all.push_back(t);
      }
    }
  }
  for (const auto& t : all) {
    if (store_) {
      store_->record_topic(t);  // throws if the journal knows it with another partition count
    }
    cluster_.create_topic(t.name, t.partitions);
    log::info("created topic {} with {} partitions", t.name, t.partitions);
  }
  if (!store_ || !data_dir) {  // the journal is kept only in a data directory
    return;
  }
  log::info("journal: restoring the log kept in {}", data_dir->string());
  const auto restored = journal::restore(*store_, cluster_.bootstrap());
  log::info("journal: {} records restored in {:.1f} s ({:.0f}/s)", restored.records, restored.seconds,
            restored.seconds > 0 ? static_cast<double>(restored.records) / restored.seconds : 0.0);
  recorder_ = std::make_unique<journal::Recorder>(*store_, cluster_.bootstrap(), restored.next);
  recorder_->start();
}

BrokerProgram::~BrokerProgram() = default;

void BrokerProgram::create_topic(const std::string& name, int partitions) {
  // Journaled first: a topic the cluster has but the journal lacks would
  // lose its records on the next start.
  if (store_) {
    store_->record_topic({name, partitions});
  }
  cluster_.create_topic(name, partitions);
  if (recorder_) {
    recorder_->add_topic({name, partitions});
  }
}

std::string BrokerProgram::problem() const {
  return recorder_ ? recorder_->problem() : std::string();
}

void BrokerProgram::stop() {
  if (!recorder_) {
    return;
  }
  const auto began = std::chrono::steady_clock::now();
  const bool complete = recorder_->drain_and_stop(std::chrono::seconds(20));
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  if (complete) {
    log::info("journal: complete and synced ({} records this run; {:.2f} s to stop)", recorder_->recorded(),
              seconds);
  } else {
    log::error("journal: the end of the log was not reached within 20 s; records after it are lost");
  }
  recorder_.reset();
}

}  // namespace petstore::tools
