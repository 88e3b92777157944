#include "es/command_path.h"

#include "es/errc.h"
#include "kafka/handles.h"

namespace petstore::es {

CommandPath::CommandPath(EventLog& log, AggregateLock& locks, CatchUp& catch_up, redis::Pool& pool,
                         std::chrono::milliseconds lease, std::chrono::milliseconds delivery_timeout)
    : log_(log),
      locks_(locks),
      catch_up_(catch_up),
      pool_(pool),
      lease_(lease),
      delivery_timeout_(delivery_timeout) {}

AggregateLock::Held CommandPath::lock(const std::string& lock_key, const std::string& topic,
                                      const std::string& subject) {
  auto held = locks_.acquire(lock_key);
  if (held.previous_holder_died) {
    try {
      catch_up_aggregate(topic, subject, held.lease_end);
    } catch (...) {
      locks_.poison(held);
      throw;
    }
  }
  return held;
}

void CommandPath::catch_up_aggregate(const std::string& topic, const std::string& subject,
                                     CatchUp::Deadline deadline) {
  catch_up_.partition_end(topic, log_.partition_of(topic, subject), deadline);
}

std::string CommandPath::commit(const NewEvent& event, LockGuard* guard, const ApplyOwn& apply) {
  // The append answers (delivered, failed, or unknown) within the delivery
  // timeout and the report's lateness (kafka::Producer::append bounds its
  // wait by both), so it ends before the lease does.
  if (guard != nullptr &&
      std::chrono::steady_clock::now() + delivery_timeout_ + kafka::kDeliveryReportLateness >
          guard->held().lease_end) {
    throw Error(Errc::Lagging, "the read model took too long to catch up; nothing was written, retry");
  }
  Appended appended;
  try {
    appended = log_.append(event);
  } catch (const kafka::Unavailable& e) {
    if (e.possibly_persisted() && guard != nullptr) {
      guard->mark_uncertain();
    }
    throw;
  }
  // The event is in the log: from here on, failing to apply it leaves the
  // read model behind, which the next lock holder must know about.
  try {
    const auto outcome =
        pool_.run_idempotent([&](redis::Connection& c) { return apply(c, appended.envelope); });
    if (outcome == ApplyOutcome::Behind) {
      catch_up_.through(event.topic, appended.position.partition, appended.position.offset);
    }
  } catch (...) {
    if (guard != nullptr) {
      guard->mark_uncertain();
    }
    throw;
  }
  return appended.envelope.time;
}

}  // namespace petstore::es
