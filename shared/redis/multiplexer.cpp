#include "redis/multiplexer.h"

#include <algorithm>
#include <future>

#include <spdlog/spdlog.h>

namespace petstore::redis {

Reply Outcome::take() {
  if (failure) {
    std::rethrow_exception(failure);
  }
  return std::move(reply);
}

Multiplexer::Multiplexer(Endpoint endpoint, size_t lanes) : endpoint_(std::move(endpoint)) {
  for (size_t i = 0; i < std::max<size_t>(1, lanes); ++i) {
    lanes_.push_back(std::make_unique<Lane>(endpoint_));
  }
}

Multiplexer::~Multiplexer() = default;

Multiplexer::Lane::Lane(const Endpoint& endpoint) : endpoint_(endpoint), io_([this] { loop(); }) {}

Multiplexer::Lane::~Lane() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  io_.join();
}

std::unique_ptr<Multiplexer::Pending> Multiplexer::pending(std::vector<std::string> args,
                                                           std::future<Outcome>& reply) {
  auto promise = std::make_shared<std::promise<Outcome>>();
  reply = promise->get_future();
  return std::make_unique<Pending>(
      Pending{std::move(args), [promise](Outcome o) { promise->set_value(std::move(o)); }});
}

Reply Multiplexer::Call::get(Wait wait) {
  // Bounded: the I/O thread answers every request within the connect and
  // command timeouts, with a reply or an Unavailable.
  if (wait != Wait::zero() && reply_.wait_for(wait) != std::future_status::ready) {
    throw Unavailable("redis: no reply within " + std::to_string(wait.count()) + " ms");
  }
  return reply_.get().take();
}

Multiplexer::Call Multiplexer::submit(const Args& args) {
  std::future<Outcome> reply;
  Batch batch;
  batch.push_back(pending({args.begin(), args.end()}, reply));
  enqueue(std::move(batch));
  return Call(std::move(reply));
}

Reply Multiplexer::command(const Args& args, Wait wait) {
  return submit(args).get(wait);
}

std::vector<Reply> Multiplexer::commands(const std::vector<Args>& all, Wait wait) {
  std::vector<std::future<Outcome>> futures(all.size());
  Batch batch;
  batch.reserve(all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    batch.push_back(pending({all[i].begin(), all[i].end()}, futures[i]));
  }
  enqueue(std::move(batch));
  std::vector<Reply> replies;
  replies.reserve(futures.size());
  const auto give_up = std::chrono::steady_clock::now() + wait;
  for (auto& f : futures) {
    if (wait != Wait::zero() && f.wait_until(give_up) != std::future_status::ready) {
      throw Unavailable("redis: no reply within " + std::to_string(wait.count()) + " ms");
    }
    replies.push_back(f.get().take());
  }
  return replies;
}

Multiplexer::ScriptCall Multiplexer::submit_script(const Script& s, const Args& keys, const Args& args) {
  std::vector<std::string> call{"EVALSHA", s.sha(), std::to_string(keys.size())};
  call.reserve(3 + keys.size() + args.size());
  call.insert(call.end(), keys.begin(), keys.end());
  call.insert(call.end(), args.begin(), args.end());
  auto first = submit(Args(call.begin(), call.end()));
  return ScriptCall(*this, s, std::move(call), std::move(first));
}

Reply Multiplexer::ScriptCall::get(Wait wait) {
  auto reply = first_.get(wait);
  if (is_noscript(*reply)) {
    call_[0] = "EVAL";
    call_[1] = script_->source();
    reply = owner_->command(Args(call_.begin(), call_.end()), wait);
  }
  return reply;
}

Reply Multiplexer::script(const Script& s, const Args& keys, const Args& args, Wait wait) {
  return submit_script(s, keys, args).get(wait);
}

void Multiplexer::enqueue(Batch pending) {
  const auto lane = next_lane_.fetch_add(1, std::memory_order_relaxed) % lanes_.size();
  lanes_[lane]->enqueue(std::move(pending));
}

void Multiplexer::Lane::enqueue(Batch pending) {
  {
    const std::lock_guard lock(mutex_);
    if (queue_.empty()) {
      queue_ = std::move(pending);
    } else {
      for (auto& p : pending) {
        queue_.push_back(std::move(p));
      }
    }
  }
  wake_.notify_one();
}

void Multiplexer::Lane::loop() {
  Batch batch;
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

void Multiplexer::deliver(Pending& p, Outcome outcome) {
  // A callback that throws must not take the I/O thread (and every other
  // caller's replies) with it.
  try {
    p.done(std::move(outcome));
  } catch (const std::exception& e) {
    spdlog::error("redis multiplexer: a reply's callback failed: {}", e.what());
  }
}

void Multiplexer::Lane::send(Batch& batch, size_t& answered) {
  if (!conn_ || conn_->broken()) {
    conn_ = std::make_unique<Connection>(endpoint_);
  }
  for (size_t i = answered; i < batch.size(); ++i) {
    conn_->append(Args(batch[i]->args.begin(), batch[i]->args.end()));
  }
  for (; answered < batch.size(); ++answered) {
    auto reply = conn_->next_reply();
    deliver(*batch[answered], Outcome{std::move(reply), nullptr});
  }
}

void Multiplexer::fail_rest(Batch& batch, size_t answered, const std::exception_ptr& failure) {
  for (size_t i = answered; i < batch.size(); ++i) {
    deliver(*batch[i], Outcome{nullptr, failure});
  }
}

void Multiplexer::Lane::run_batch(Batch& batch) {
  size_t answered = 0;
  const bool reused = conn_ != nullptr;
  try {
    send(batch, answered);
    return;
  } catch (const Unavailable&) {
    conn_.reset();
    if (!reused) {
      fail_rest(batch, answered, std::current_exception());
      return;
    }
  }
  // The connection had been idle and Redis may have restarted since: the
  // unanswered commands get one more try on a new one.
  try {
    send(batch, answered);
  } catch (...) {
    conn_.reset();
    fail_rest(batch, answered, std::current_exception());
  }
}

}  // namespace petstore::redis
