#include "redis/multiplexer.h"

namespace petstore::redis {

Multiplexer::Multiplexer(Endpoint endpoint) : endpoint_(std::move(endpoint)), io_([this] { loop(); }) {}

Multiplexer::~Multiplexer() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  io_.join();
}

Reply Multiplexer::command(const Args& args, Wait wait) {
  return std::move(commands({args}, wait).front());
}

std::vector<Reply> Multiplexer::commands(const std::vector<Args>& all, Wait wait) {
  std::vector<std::future<Reply>> futures;
  futures.reserve(all.size());
  {
    const std::lock_guard lock(mutex_);
    for (const auto& args : all) {
      auto pending = std::make_unique<Pending>();
      pending->args.assign(args.begin(), args.end());
      futures.push_back(pending->reply.get_future());
      queue_.push_back(std::move(pending));
    }
  }
  wake_.notify_one();
  // Bounded: the I/O thread answers every request within the connect and
  // command timeouts, with a reply or an Unavailable.
  std::vector<Reply> replies;
  replies.reserve(futures.size());
  const auto give_up = std::chrono::steady_clock::now() + wait;
  for (auto& f : futures) {
    if (wait != Wait::zero() && f.wait_until(give_up) != std::future_status::ready) {
      throw Unavailable("redis: no reply within " + std::to_string(wait.count()) + " ms");
    }
    replies.push_back(f.get());
  }
  return replies;
}

Reply Multiplexer::script(const Script& s, const Args& keys, const Args& args, Wait wait) {
  const auto numkeys = std::to_string(keys.size());
  Args call{"EVALSHA", s.sha(), numkeys};
  call.insert(call.end(), keys.begin(), keys.end());
  call.insert(call.end(), args.begin(), args.end());
  auto reply = command(call, wait);
  if (is_noscript(*reply)) {
    call[0] = "EVAL";
    call[1] = s.source();
    reply = command(call, wait);
  }
  return reply;
}

void Multiplexer::loop() {
  std::vector<std::unique_ptr<Pending>> batch;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) {
        return;
      }
      batch.swap(queue_);
    }
    run_batch(batch);
    batch.clear();
  }
}

void Multiplexer::send(std::vector<std::unique_ptr<Pending>>& batch, size_t& answered) {
  if (!conn_ || conn_->broken()) {
    conn_ = std::make_unique<Connection>(endpoint_);
  }
  for (size_t i = answered; i < batch.size(); ++i) {
    conn_->append(Args(batch[i]->args.begin(), batch[i]->args.end()));
  }
  for (; answered < batch.size(); ++answered) {
    batch[answered]->reply.set_value(conn_->next_reply());
  }
}

void Multiplexer::run_batch(std::vector<std::unique_ptr<Pending>>& batch) {
  size_t answered = 0;
  const bool reused = conn_ != nullptr;
  try {
    send(batch, answered);
    return;
  } catch (const Unavailable&) {
    conn_.reset();
    if (!reused) {
      for (size_t i = answered; i < batch.size(); ++i) {
        batch[i]->reply.set_exception(std::current_exception());
      }
      return;
    }
  }
  // The connection had been idle and Redis may have restarted since: the
  // unanswered reads (they change nothing) get one more try on a new one.
  try {
    send(batch, answered);
  } catch (...) {
    conn_.reset();
    for (size_t i = answered; i < batch.size(); ++i) {
      batch[i]->reply.set_exception(std::current_exception());
    }
  }
}

}  // namespace petstore::redis
