#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <stdexcept>

#include "apikeys/api_key.h"
#include "commands.h"
#include "record.h"
#include "text/datetime.h"
#include "view_module.h"

namespace petstore::audit {

namespace {

// "--pet ID | --order ID | ...": the target flags of the kinds `take` keeps.
template <typename Take>
std::string targets(Take take) {
  std::string out;
  for (const auto& k : kinds()) {
    if (!k.target_flag.empty() && take(k)) {
      out += (out.empty() ? "" : " | ") + std::string(k.target_flag) +
             (k.subject == SubjectForm::KeyId ? " KEY_ID" : " ID");
    }
  }
  return out;
}

bool takes_history(const RegisteredKind& k) {
  return k.own_history;
}

bool takes_as_of(const RegisteredKind& k) {
  const auto* view = view_of(k.kind);
  return view != nullptr && view->as_of != nullptr;
}

}  // namespace

std::string usage() {
  std::string topics;  // "  --topic-pets NAME, ...", wrapped before 80 columns
  std::size_t line = 0;
  for (const auto& k : kinds()) {
    const auto flag = std::string(k.topic_flag) + " NAME";
    if (topics.empty() || topics.size() - line + flag.size() + 2 > 78) {
      topics += topics.empty() ? "  " : ",\n  ";
      line = topics.size() - 2;
    } else {
      topics += ", ";
    }
    topics += flag;
  }
  return R"(usage: petstore-audit [options] <command>

commands:
  verify                 check the invariants over the whole log (docs/audit.md);
                         exit 1 and list every violation if one breaks
  rebuild                fold the log into a key prefix of its own with the
                         services' projection code and compare that with the
                         live read model; exit 1 and list every difference
  history )" +
         targets(takes_history) + R"(
                         the audit trail of one aggregate across every topic
                         that mentions it (a key: its issue, re-plans and
                         revocation)
  as-of TIME )" +
         targets(takes_as_of) + R"(
                         the aggregate's state folded from the events up to
                         TIME (RFC 3339)

options:
  --brokers LIST         bootstrap servers (default: $KAFKA_BROKERS, else
                         .run/kafka.bootstrap as scripts/up writes it)
  --until-offset N       read each partition up to (not including) offset N
  --until-time TIME      read records with timestamps up to TIME (RFC 3339)
  --max-pending-age S    verify: a placed order unanswered, or a step the
                         inventory owes (a release, a consumption, a new
                         pet's tracking) not taken, for more than S seconds
                         is a violation (default: listed only)
  --json                 verify: a JSON report; history: JSON Lines
  --redis HOST:PORT      rebuild: the live read model's Redis (default:
                         $REDIS_HOST:$REDIS_PORT, else 127.0.0.1:6379)
  --redis-socket PATH    rebuild: reach that Redis over a Unix socket
  --prefix P             rebuild: the live read model's key prefix (default:
                         $PETSTORE_PREFIX, else petstore)
  --into P               rebuild: the prefix to fold into (default: P-rebuild);
                         its keys are deleted first
  --keep                 rebuild: leave the rebuilt keys for inspection
  --settle S             rebuild: wait up to S seconds (default 30) for the
                         live projections to reach the end of the log
  --no-progress          no progress on standard error
)" + topics +
         R"(
                         topics (default: $KAFKA_TOPIC_* or petstore.*.v1)
)";
}

namespace {

std::string env_or(const char* name, std::string fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::string(v) : std::move(fallback);
}

std::int64_t positive(const std::string& flag, const std::string& text) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < 0) {
    throw std::invalid_argument(flag + " takes a non-negative integer, not '" + text + "'");
  }
  return v;
}

// The kind whose topic flag, or target flag, is `arg`, or null.
const RegisteredKind* kind_with_topic_flag(const std::string& arg) {
  const auto it = std::ranges::find(kinds(), arg, &RegisteredKind::topic_flag);
  return it == kinds().end() ? nullptr : &*it;
}
const RegisteredKind* kind_with_target_flag(const std::string& arg) {
  const auto it = std::ranges::find_if(
      kinds(), [&](const RegisteredKind& k) { return !k.target_flag.empty() && k.target_flag == arg; });
  return it == kinds().end() ? nullptr : &*it;
}

}  // namespace

Options parse_options(const std::vector<std::string>& args) {
  Options o;
  o.brokers = env_or("KAFKA_BROKERS", "");
  if (o.brokers.empty()) {
    std::ifstream in(".run/kafka.bootstrap");
    std::getline(in, o.brokers);
  }
  o.redis.host = env_or("REDIS_HOST", o.redis.host);
  o.redis.unix_socket = env_or("REDIS_SOCKET", "");
  o.redis.command_timeout = std::chrono::seconds(30);  // reads whole sorted sets
  o.prefix = env_or("PETSTORE_PREFIX", o.prefix);
  if (const auto port = env_or("REDIS_PORT", ""); !port.empty()) {
    o.redis.port = static_cast<int>(positive("REDIS_PORT", port));
  }
  for (const auto& k : kinds()) {
    o.topics.names[k.kind] = env_or(k.topic_env.c_str(), o.topics.names[k.kind]);
  }

  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    const auto& a = args[i];
    const auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) {
        throw std::invalid_argument(a + " needs a value");
      }
      return args[++i];
    };
    const auto target = [&](const RegisteredKind& k) {
      if (o.kind) {
        throw std::invalid_argument("name one aggregate");
      }
      o.kind = k.kind;
      const auto& id = value();
      if (k.subject == SubjectForm::StoreId) {
        o.id = positive(a, id);
      } else if (!apikeys::is_key_id(id)) {
        std::string message = a;
        message += " takes an API key id (16 lowercase hex digits), not '" + id + "'";
        throw std::invalid_argument(message);
      } else {
        o.id = key_subject(id);
      }
    };
    if (a == "--brokers") {
      o.brokers = value();
    } else if (a == "--until-offset") {
      o.bounds.until_offset = positive(a, value());
    } else if (a == "--until-time") {
      const auto& t = value();
      o.bounds.until_time_ms = text::parse_time_ms(t);
      if (!o.bounds.until_time_ms) {
        throw std::invalid_argument("--until-time takes an RFC 3339 date-time, not '" + t + "'");
      }
    } else if (a == "--max-pending-age") {
      o.max_pending_age = std::chrono::seconds(positive(a, value()));
    } else if (a == "--redis") {
      const auto& hp = value();
      const auto colon = hp.rfind(':');
      if (colon == std::string::npos || colon == 0) {
        throw std::invalid_argument("--redis takes HOST:PORT, not '" + hp + "'");
      }
      o.redis.host = hp.substr(0, colon);
      o.redis.port = static_cast<int>(positive(a, hp.substr(colon + 1)));
    } else if (a == "--redis-socket") {
      o.redis.unix_socket = value();
    } else if (a == "--prefix") {
      o.prefix = value();
    } else if (a == "--into") {
      o.into = value();
    } else if (a == "--keep") {
      o.keep = true;
    } else if (a == "--settle") {
      o.settle = std::chrono::seconds(positive(a, value()));
    } else if (a == "--json") {
      o.json = true;
    } else if (a == "--no-progress") {
      o.progress = false;
    } else if (const auto* k = kind_with_topic_flag(a)) {
      o.topics.names[k->kind] = value();
    } else if (const auto* t = kind_with_target_flag(a)) {
      target(*t);
    } else if (a == "-h" || a == "--help") {
      o.command = "help";
      return o;
    } else if (a.starts_with("--")) {
      throw std::invalid_argument("unknown option " + a);
    } else {
      positional.push_back(a);
    }
  }
  if (positional.empty()) {
    throw std::invalid_argument("name a command");
  }
  o.command = positional[0];
  if (o.command == "verify") {
    if (positional.size() != 1 || o.kind) {
      throw std::invalid_argument("verify takes no aggregate");
    }
  } else if (o.command == "rebuild") {
    if (positional.size() != 1 || o.kind) {
      throw std::invalid_argument("rebuild takes no aggregate");
    }
    if (o.into.empty()) {
      o.into = o.prefix + "-rebuild";
    }
    if (o.into == o.prefix || o.prefix.empty()) {
      throw std::invalid_argument("--into must name a prefix other than the live one");
    }
    if (o.redis.port > 65535) {
      throw std::invalid_argument("the Redis port is out of range");
    }
  } else if (o.command == "history") {
    if (positional.size() != 1 || !o.kind || !takes_history(info(*o.kind))) {
      throw std::invalid_argument("history takes one of " + targets(takes_history));
    }
  } else if (o.command == "as-of") {
    if (positional.size() != 2 || !o.kind || !takes_as_of(info(*o.kind))) {
      throw std::invalid_argument("as-of takes a time and one of " + targets(takes_as_of));
    }
    const auto t = text::parse_time_ms(positional[1]);
    if (!t) {
      throw std::invalid_argument("as-of takes an RFC 3339 date-time, not '" + positional[1] + "'");
    }
    o.bounds.until_time_ms = o.bounds.until_time_ms ? std::min(*o.bounds.until_time_ms, *t) : *t;
  } else {
    throw std::invalid_argument("unknown command " + o.command);
  }
  if (o.brokers.empty()) {
    throw std::invalid_argument("no brokers: pass --brokers or set KAFKA_BROKERS");
  }
  return o;
}

}  // namespace petstore::audit
