#include "service/reaction_relay.h"

#include <stdexcept>

#include "error/codes.h"
#include "es/errc.h"
#include "http/api_error.h"
#include "kafka/message_frame.h"

namespace petstore::service {
namespace {

constexpr const char* kFramedRecord = "application/vnd.petstore.record";

}  // namespace

void ReactionRelay::handle(const kafka::Message& m) {
  handle_in_full(m);
}

projection::Reaction::Rest ReactionRelay::begin(const kafka::Message& m) {
  try {
    return local_.begin(m);
  } catch (const es::Error& e) {
    if (e.code() != es::Errc::NotOwner || e.owner_hint().empty()) {
      throw;
    }
    std::string answer;
    const auto status =
        forwarder_.send(e.owner_hint(), path(purpose_), kafka::frame(m), kFramedRecord, &answer);
    if (status == 204) {
      return {};
    }
    throw std::runtime_error("the owner at " + e.owner_hint() + " did not take the step (" +
                             (status ? std::to_string(*status) + " " + answer : std::string("no answer")) +
                             ")");
  }
}

void add_reaction_route(http::Router& router, const std::map<std::string, projection::Reaction*>& reactions,
                        const http::TrustedProxies& trusted) {
  router.add("POST", "/internal/reactions/{purpose}",
             [&reactions, &trusted](const httplib::Request& req, httplib::Response& res,
                                    const http::PathParams& path) {
               const auto it = reactions.find(path.text(0));
               if (!http::Forwarder::forwarded_by_trusted(req, trusted) || it == reactions.end()) {
                 throw ApiException(ApiError(404, codes::kRouteNotFound, "no route for POST " + req.path));
               }
               kafka::Message m;
               try {
                 m = kafka::unframe(req.body);
               } catch (const std::invalid_argument& e) {
                 throw ApiException(ApiError(400, codes::kBadRequest, e.what()));
               }
               it->second->handle(m);
               res.status = 204;
             });
}

}  // namespace petstore::service
