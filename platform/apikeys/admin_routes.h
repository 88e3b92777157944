#pragma once

#include <string>

#include "apikeys/admin_token.h"
#include "apikeys/key_store.h"
#include "http/router.h"

namespace petstore::apikeys {

// The operators' API for keys, guarded by the admin token (Authorization:
// Bearer <token>): POST /admin/keys issues a key (shown once), GET lists or
// shows keys, PATCH re-plans, DELETE revokes. The token is checked before
// anything else, so a caller without it learns nothing about which keys exist.
void add_admin_routes(http::Router& router, KeyStore& store, const AdminToken& admin_token);

}  // namespace petstore::apikeys
