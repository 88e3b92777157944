// A downstream team's consumer, written from docs/consumers.md alone: it
// reads topics from their beginning with kafkajs, read_committed (kafkajs'
// default, named here), and decodes every record with the CloudEvents SDK's
// Kafka binding, which validates it. It stops once no record has come for
// --idle-ms, and prints one JSON line: how many records it read per topic,
// and every record the SDK refused.
//
//   node consume.mjs --brokers HOST:PORT[,...] --topics T1,T2 [--idle-ms 5000]
import { Kafka as KafkaBinding } from "cloudevents";
import { Kafka, logLevel } from "kafkajs";

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || i + 1 >= process.argv.length) {
    if (fallback === undefined) {
      console.error(`consume.mjs: --${name} is required`);
      process.exit(2);
    }
    return fallback;
  }
  return process.argv[i + 1];
}

const brokers = option("brokers").split(",");
const topics = option("topics").split(",");
const idleMs = Number(option("idle-ms", "5000"));

const kafka = new Kafka({ clientId: "cloudevents-consumer", brokers, logLevel: logLevel.ERROR });
const consumer = kafka.consumer({
  groupId: `cloudevents-consumer-${process.pid}-${Date.now()}`,
  readUncommitted: false,
});

const report = { records: {}, events: 0, refused: [] };
let last = Date.now();

await consumer.connect();
for (const topic of topics) {
  report.records[topic] = 0;
  await consumer.subscribe({ topic, fromBeginning: true });
}
await consumer.run({
  eachMessage: async ({ topic, partition, message }) => {
    last = Date.now();
    report.records[topic] += 1;
    const headers = {};
    for (const [name, value] of Object.entries(message.headers ?? {})) {
      headers[name] = value === undefined || value === null ? "" : value.toString();
    }
    try {
      const event = KafkaBinding.toEvent({
        key: message.key === null ? "" : message.key.toString(),
        value: message.value === null ? null : message.value.toString(),
        headers,
        timestamp: message.timestamp,
      });
      event.validate();
      report.events += 1;
    } catch (e) {
      report.refused.push({ topic, partition, offset: message.offset, error: String(e?.message ?? e) });
    }
  },
});

await new Promise((resolve) => {
  const timer = setInterval(() => {
    if (Date.now() - last > idleMs) {
      clearInterval(timer);
      resolve();
    }
  }, 200);
});
await consumer.disconnect();
console.log(JSON.stringify(report));
