// Checks that compose.yaml and the local scripts describe the same system:
// the same topics with the same partition counts, a log that is replicated
// and kept for ever, and environment variables that the services really read.
// Run by scripts/lint-compose (and so by scripts/test); tests/contract/
// compose_agreement.sh feeds it broken copies to show that it fails.
//
//   node check-agreement.mjs [--root DIR] [--compose FILE] [--topics FILE]
//
// Prints one line per disagreement and exits 1 if there is any.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parse } from "yaml";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const root = resolve(option("--root", new URL("../..", import.meta.url).pathname));
const composePath = resolve(option("--compose", join(root, "compose.yaml")));
const topicsPath = resolve(option("--topics", join(root, "schemas/topics.txt")));

const problems = [];
const problem = (text) => problems.push(text);

// ---- the files
const compose = parse(readFileSync(composePath, "utf8"), { merge: true });
const services = compose.services ?? {};
// The store's services: the names of services/services.txt.
const appServices = readFileSync(join(root, "services/services.txt"), "utf8")
  .split("\n")
  .filter((line) => /^[a-z]/.test(line))
  .map((line) => line.split(/\s+/)[0]);
const environment = (name) => {
  const env = services[name]?.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((e) => [String(e).split("=")[0], String(e).split("=").slice(1).join("=")]));
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? "" : String(v)]));
};

const topics = new Map();
readFileSync(topicsPath, "utf8")
  .split("\n")
  .forEach((line, i) => {
    const text = line.replace(/#.*/, "").trim();
    if (!text) return;
    const [name, partitions, extra] = text.split(/\s+/);
    const n = Number(partitions);
    if (extra !== undefined || !/^[A-Za-z0-9._-]{1,249}$/.test(name) || !Number.isInteger(n) || n < 1) {
      problem(`${relative(root, topicsPath)}:${i + 1}: expected "<topic> <partitions>", got "${text}"`);
    } else if (topics.has(name)) {
      problem(`${relative(root, topicsPath)}:${i + 1}: topic ${name} listed twice`);
    } else {
      topics.set(name, n);
    }
  });

// Source files of the programs (not the tests), for the topics and the
// environment variables they use.
function sources(dir) {
  const out = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.(h|cpp)$/.test(entry)) out.push(readFileSync(path, "utf8"));
  }
  return out;
}
const programSources = ["shared", "platform", "services", "tools"].flatMap((d) => sources(join(root, d)));
const serviceSources = ["shared", "platform", "services"].flatMap((d) => sources(join(root, d)));

// ---- topics: one list, used by both, and by the code
const topicJob = services["kafka-topics"];
if (!topicJob) {
  problem("compose.yaml has no kafka-topics service to create the topics");
} else {
  const mounts = (topicJob.volumes ?? []).map((v) => (typeof v === "string" ? v : `${v.source}:${v.target}`));
  const mount = mounts.find((m) => resolve(root, m.split(":")[0]) === resolve(root, "schemas/topics.txt"));
  if (!mount) {
    problem("compose.yaml: kafka-topics does not mount ./schemas/topics.txt, the list scripts/up creates its topics from");
  } else {
    const target = mount.split(":")[1];
    const command = [].concat(topicJob.command ?? []).join("\n");
    if (!command.includes(target)) problem(`compose.yaml: kafka-topics mounts the topic list at ${target} but does not read it`);
    for (const needed of [
      "--replication-factor 3",
      "min.insync.replicas=2",
      "retention.ms=-1",
      "unclean.leader.election.enable=false",
    ]) {
      if (!command.includes(needed)) problem(`compose.yaml: kafka-topics does not create topics with ${needed}`);
    }
  }
}
const libSh = readFileSync(join(root, "scripts/lib.sh"), "utf8");
if (!/done <"\$ROOT\/schemas\/topics\.txt"/.test(libSh)) {
  problem("scripts/lib.sh does not create the local topics from $ROOT/schemas/topics.txt");
}

// ---- one Kafka version: compose.yaml's x-kafka-image (its build's
// KAFKA_VERSION), which every Kafka service of compose runs and
// scripts/lib.sh reads for the local node
const kafkaImage = compose["x-kafka-image"] ?? {};
const kafkaVersion = String(kafkaImage.build?.args?.KAFKA_VERSION ?? "");
if (!/^[0-9]+\.[0-9]+\.[0-9]+$/.test(kafkaVersion)) {
  problem(`compose.yaml: x-kafka-image builds Kafka "${kafkaVersion}", not a <version>`);
}
for (const [name, service] of Object.entries(services)) {
  const image = String(service.image ?? "");
  if (image.includes("kafka") && (image !== String(kafkaImage.image) ||
      String(service.build?.args?.KAFKA_VERSION ?? "") !== kafkaVersion)) {
    problem(`compose.yaml: ${name} runs ${image}, not x-kafka-image (${kafkaImage.image} ${kafkaVersion})`);
  }
}
if (!libSh.includes("s|^    args: {KAFKA_VERSION: ")) {
  problem("scripts/lib.sh does not take the Kafka version from compose.yaml's x-kafka-image");
}
const used = new Set();
for (const text of programSources) {
  for (const m of text.matchAll(/"(petstore\.[a-z0-9_-]+\.v[0-9]+)"/g)) used.add(m[1]);
}
for (const name of used) {
  if (!topics.has(name)) problem(`the code uses topic ${name}, which schemas/topics.txt does not list`);
}
for (const name of topics.keys()) {
  if (!used.has(name)) problem(`schemas/topics.txt lists ${name}, which no program uses`);
}

// ---- the brokers: three, replicated, each with its own volume
const brokers = Object.keys(services).filter((name) => environment(name).KAFKA_NODE_ID !== undefined);
if (brokers.length !== 3) problem(`compose.yaml runs ${brokers.length} Kafka brokers, not 3`);
const nodeIds = new Set();
const advertised = [];
for (const name of brokers) {
  const env = environment(name);
  nodeIds.add(env.KAFKA_NODE_ID);
  advertised.push((env.KAFKA_ADVERTISED_LISTENERS ?? "").replace(/^PLAINTEXT:\/\//, ""));
  const expect = {
    KAFKA_DEFAULT_REPLICATION_FACTOR: "3",
    KAFKA_MIN_INSYNC_REPLICAS: "2",
    KAFKA_UNCLEAN_LEADER_ELECTION_ENABLE: "false",
    KAFKA_LOG_RETENTION_MS: "-1",
    KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: "3",
    KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: "3",
    KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: "2",
    KAFKA_AUTO_CREATE_TOPICS_ENABLE: "false",
  };
  for (const [key, value] of Object.entries(expect)) {
    if (env[key] !== value) problem(`compose.yaml: ${name} has ${key}=${env[key] ?? "(unset)"}, expected ${value}`);
  }
  const logDir = env.KAFKA_LOG_DIRS;
  const volumes = (services[name].volumes ?? []).map(String);
  const volume = volumes.find((v) => v.split(":")[1] === logDir);
  if (!logDir || !volume) {
    problem(`compose.yaml: ${name} keeps its log (KAFKA_LOG_DIRS=${logDir}) outside any volume`);
  } else if (!(compose.volumes && volume.split(":")[0] in compose.volumes)) {
    problem(`compose.yaml: ${name}'s log volume ${volume.split(":")[0]} is not a named volume`);
  }
}
if (nodeIds.size !== brokers.length) problem("compose.yaml: two Kafka brokers share a KAFKA_NODE_ID");
const redisVolumes = (services.redis?.volumes ?? []).map(String);
if (!redisVolumes.some((v) => compose.volumes && v.split(":")[0] in compose.volumes && v.split(":")[1] === "/data")) {
  problem("compose.yaml: redis keeps its append-only file (/data) outside a named volume");
}
if (![].concat(services.redis?.command ?? []).join(" ").includes("--appendonly yes")) {
  problem("compose.yaml: redis runs without its append-only file");
}

// ---- environment variables
const read = new Set();
for (const text of serviceSources) {
  for (const m of text.matchAll(/env\.(?:str|integer|millis|flag|find)\(\s*"([A-Z0-9_]+)"/g)) read.add(m[1]);
}
// What scripts/up gives the services: its exports, and the per-replica
// variables of lib.sh's start_service.
const up = readFileSync(join(root, "scripts/up"), "utf8");
const passed = new Set();
for (const text of [up, libSh]) {
  for (const m of text.matchAll(/^\s*export\s+([^\n#]+)/gm)) {
    for (const word of m[1].split(/\s+/)) {
      const name = word.split("=")[0];
      if (/^[A-Z][A-Z0-9_]*$/.test(name)) passed.add(name);
    }
  }
}
const startService = libSh.match(/start_service\(\) \{[\s\S]*?\n\}/)?.[0] ?? "";
for (const m of startService.matchAll(/\b([A-Z][A-Z0-9_]*)=/g)) passed.add(m[1]);
// Set by the scripts, deliberately not by compose, and why.
const localOnly = {
  INSTANCE_ID: "compose leaves it to the default, the container's host name and pid, unique per replica",
  HTTP_UNIX_SOCKET: "compose's entry point runs in a container of its own and reaches the replicas over the network",
};
// Without these a replica would not work in compose: their defaults are for
// a single host (loopback) or absent.
const requiredInCompose = ["HTTP_HOST", "HTTP_PORT", "KAFKA_BROKERS", "REDIS_HOST", "REDIS_PORT",
  "PETSTORE_ADMIN_TOKEN", "TRUSTED_PROXIES"];
const expectedBrokers = advertised.slice().sort().join(",");
for (const service of appServices) {
  if (!services[service]) {
    problem(`compose.yaml has no ${service} service`);
    continue;
  }
  const env = environment(service);
  for (const name of Object.keys(env)) {
    if (!read.has(name)) problem(`compose.yaml: ${service} sets ${name}, which no service reads`);
  }
  for (const name of passed) {
    if (read.has(name) && !(name in env) && !(name in localOnly)) {
      problem(`scripts/up sets ${name} for the services, compose.yaml does not set it for ${service}`);
    }
  }
  for (const name of requiredInCompose) {
    if (!(name in env)) problem(`compose.yaml: ${service} does not set ${name}`);
  }
  if (env.KAFKA_BROKERS && env.KAFKA_BROKERS.split(",").sort().join(",") !== expectedBrokers) {
    problem(`compose.yaml: ${service} has KAFKA_BROKERS=${env.KAFKA_BROKERS}, the brokers are ${expectedBrokers}`);
  }
  const port = env.HTTP_PORT;
  const health = [].concat(services[service].healthcheck?.test ?? []).join(" ");
  if (port && !health.includes(`:${port}/readyz`)) {
    problem(`compose.yaml: ${service} listens on ${port} but its health check asks another port or not /readyz`);
  }
  // The entry point's upstreams and Prometheus' jobs, as their entry
  // scripts write them: every service of services.txt, on one port.
  for (const script of ["deploy/nginx/compose-entry.sh", "deploy/prometheus/compose-entry.sh"]) {
    const text = readFileSync(join(root, script), "utf8");
    const theirs = text.match(/^port=([0-9]+)$/m)?.[1];
    if (port && theirs !== port) {
      problem(`${script} reaches the services on port ${theirs ?? "(none)"}, ${service} listens on ${port}`);
    }
    if (!text.includes("services.txt")) problem(`${script} does not take the services from services/services.txt`);
  }
}
// The scripts' own variables, which reach the services' environment only
// because they are exported for lib.sh's functions.
const scriptsOwn = ["KAFKA_DATA_DIR", "KAFKA_PORT", "PETSTORE_LOG_START", "REDIS_DATA_DIR", "SUPERVISE"];
for (const name of passed) {
  if (!read.has(name) && !scriptsOwn.includes(name)) problem(`scripts/up passes ${name}, which no service reads`);
}

for (const p of problems) console.log(p);
if (problems.length) {
  console.log(`${problems.length} disagreement(s) between compose.yaml and the scripts`);
  process.exit(1);
}
console.log(
  `compose.yaml and the scripts agree: ${topics.size} topics (${[...topics].map(([t, n]) => `${t}:${n}`).join(", ")}), ` +
    `${brokers.length} brokers, ${read.size} service variables`,
);
