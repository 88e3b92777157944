#include "config/service_config.h"

#include <gtest/gtest.h>

namespace petstore::config {
namespace {

using Vars = std::map<std::string, std::string>;

TEST(ServiceConfig, TheProjectionsFetchWithTheirOwnWait) {
  EXPECT_EQ(ServiceConfig::from_env(Env(Vars{}), "pets", 8081).kafka_projection_fetch_wait_ms, 100);
  const auto set = ServiceConfig::from_env(
      Env(Vars{{"KAFKA_PROJECTION_FETCH_WAIT_MS", "3"}, {"KAFKA_FETCH_WAIT_MAX_MS", "7"}}), "pets", 8081);
  EXPECT_EQ(set.kafka_projection_fetch_wait_ms, 3);
  EXPECT_EQ(set.kafka_fetch_wait_max_ms, 7);
  EXPECT_THROW(static_cast<void>(
                   ServiceConfig::from_env(Env(Vars{{"KAFKA_PROJECTION_FETCH_WAIT_MS", "0"}}), "pets", 8081)),
               ConfigError);
}

TEST(ServiceConfig, AServicesOwnDefaultsGiveWayToTheEnvironment) {
  ServiceConfig defaults;
  defaults.kafka_linger_ms = 0;
  const auto own = ServiceConfig::from_env(Env(Vars{}), "inventory", 8083, defaults);
  EXPECT_EQ(own.kafka_linger_ms, 0);
  EXPECT_EQ(own.producer().linger_ms, 0);
  EXPECT_EQ(own.service, "inventory");
  EXPECT_EQ(ServiceConfig::from_env(Env(Vars{}), "pets", 8081).kafka_linger_ms, 2);
  const auto set = ServiceConfig::from_env(Env(Vars{{"KAFKA_LINGER_MS", "5"}}), "inventory", 8083, defaults);
  EXPECT_EQ(set.kafka_linger_ms, 5);
}

}  // namespace
}  // namespace petstore::config
