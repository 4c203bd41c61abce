#pragma once

// soulc test: a persona held to its persona-tests.yaml against a model server.
namespace soul {

struct Invocation;

int runTest(const Invocation &invocation);

} // namespace soul
