#include "service.h"

#include "http/routes.h"

namespace petstore::pets {

Topics topics_from(const config::Env& env) {
  return {env.str("KAFKA_TOPIC_PETS", "petstore.pets.v1"),
          env.str("KAFKA_TOPIC_CATEGORIES", "petstore.categories.v1")};
}

namespace {

es::OwnerLog::Settings writer_settings(const config::ServiceConfig& cfg, const std::string& purpose,
                                       const std::string& topic) {
  es::OwnerLog::Settings s;
  s.brokers = cfg.kafka_brokers;
  s.group = cfg.consumer_group(purpose);  // one per topic: the replicas share its partitions out
  s.topic = topic;
  s.owner = cfg.instance;
  s.source = "/petstore/pets";
  s.url = cfg.advertised_url;
  // The read-back of every append waits on the local broker's empty fetch,
  // as the saga's hops do (config::ServiceConfig::kafka_fetch_wait_max_ms).
  s.fetch_wait_max_ms = cfg.kafka_fetch_wait_max_ms;
  return s;
}

WritePath::Settings write_settings(const config::ServiceConfig& cfg) {
  // An append: the delivery timeout, a late report, and the read-back
  // (es::PartitionWriter's, 5 s).
  const auto longest_append = std::chrono::milliseconds(cfg.kafka_delivery_timeout_ms) +
                              kafka::kDeliveryReportLateness + std::chrono::milliseconds(5000);
  // A claim outlives the append it covers, with a margin for deciding.
  const auto claim_lease = std::max(cfg.command_lease, longest_append + std::chrono::milliseconds(1250));
  return {claim_lease, cfg.catch_up_timeout, longest_append};
}

}  // namespace

PetsService::PetsService(const config::ServiceConfig& cfg, Topics topics)
    : topics_(std::move(topics)),
      keys_(cfg.prefix),
      platform_(cfg, keys_.space()),
      projection_(keys_),
      read_(platform_.reads(), keys_),
      write_(platform_.pool(), platform_.catch_up(), read_, projection_, keys_, topics_, write_settings(cfg)),
      pet_owners_(platform_.pool(), keys_.space().owners(topics_.pets)),
      category_owners_(platform_.pool(), keys_.space().owners(topics_.categories)),
      pet_writer_(platform_.producer(), writer_settings(cfg, "writers.pets", topics_.pets), &pet_owners_),
      category_writer_(platform_.producer(), writer_settings(cfg, "writers.categories", topics_.categories),
                       &category_owners_),
      pet_commands_(pet_writer_, write_),
      category_commands_(category_writer_, write_) {
  const RouteDeps deps{pet_commands_, category_commands_, read_, platform_.idempotency(), keys_};
  add_pet_routes(router_, deps);
  add_category_routes(router_, deps);
  platform_.add_writer(topics_.pets, [this] { return pet_writer_.settled(); });
  platform_.add_writer(topics_.categories, [this] { return category_writer_.settled(); });
  platform_.add_platform_routes(router_);
}

void PetsService::start() {
  platform_.start({topics_.pets, topics_.categories});
  platform_.project({topics_.pets, topics_.categories}, projection_);
  pet_writer_.start();
  category_writer_.start();
}

}  // namespace petstore::pets
