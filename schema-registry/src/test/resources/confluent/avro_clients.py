"""Confluent's Python schema registry client and Avro serializer and deserializer against a Millrace
registry and broker.

Usage:
  avro_clients.py write BOOTSTRAP REGISTRY TOPIC COUNT
      registers the PageView schema through Confluent's AvroSerializer, writes COUNT page views
      (url "/confluent/<i>") to partition 0 of TOPIC, checks what the registry client then reads
      back, and prints "written COUNT with schema id ID"
  avro_clients.py read BOOTSTRAP REGISTRY TOPIC COUNT
      reads COUNT records of partition 0 of TOPIC with Confluent's AvroDeserializer (the writer's
      schema from the registry by the id in each record) and prints each as a line of JSON
Exits non-zero with a reason on stderr when a check fails.
"""
import json
import sys
import time

from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.schema_registry import Schema, SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
from confluent_kafka.serialization import MessageField, SerializationContext

PAGE_VIEW = {"type": "record", "name": "PageView", "namespace": "io.millrace.confluent",
             "fields": [{"name": "url", "type": "string"}, {"name": "ms", "type": "long"}]}


def fail(reason):
    print(reason, file=sys.stderr)
    sys.exit(1)


def check(condition, reason):
    if not condition:
        fail(reason)


def write(bootstrap, registry, topic, count):
    client = SchemaRegistryClient({"url": registry})
    serializer = AvroSerializer(client, json.dumps(PAGE_VIEW))
    context = SerializationContext(topic, MessageField.VALUE)
    producer = Producer({"bootstrap.servers": bootstrap})
    for i in range(count):
        producer.produce(topic, value=serializer({"url": "/confluent/%d" % i, "ms": i}, context), partition=0)
    check(producer.flush(30) == 0, "records not delivered")

    subject = topic + "-value"
    check(subject in client.get_subjects(), "subject %s not listed" % subject)
    latest = client.get_latest_version(subject)
    check(latest.version == 1 and latest.subject == subject, "version 1 of %s expected" % subject)
    check(json.loads(client.get_schema(latest.schema_id).schema_str)["name"] == "PageView", "schema by id differs")
    evolved = dict(PAGE_VIEW, fields=PAGE_VIEW["fields"] + [
        {"name": "referrer", "type": ["null", "string"], "default": None}])
    check(client.test_compatibility(subject, Schema(json.dumps(evolved), "AVRO")), "a field with a default is compatible")
    broken = dict(PAGE_VIEW, fields=PAGE_VIEW["fields"] + [{"name": "session", "type": "string"}])
    check(not client.test_compatibility(subject, Schema(json.dumps(broken), "AVRO")),
          "a new field without a default breaks BACKWARD compatibility")
    print("written %d with schema id %d" % (count, latest.schema_id))


def read(bootstrap, registry, topic, count):
    deserializer = AvroDeserializer(SchemaRegistryClient({"url": registry}))
    context = SerializationContext(topic, MessageField.VALUE)
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "confluent-avro-reader",
                         "enable.auto.commit": False})
    consumer.assign([TopicPartition(topic, 0, 0)])
    values = []
    deadline = time.time() + 60
    while len(values) < count and time.time() < deadline:
        message = consumer.poll(0.5)
        if message is None:
            continue
        check(message.error() is None, "fetch failed: %s" % message.error())
        values.append(deserializer(message.value(), context))
    consumer.close()
    check(len(values) == count, "read %d of %d records" % (len(values), count))
    for value in values:
        print(json.dumps(value, sort_keys=True))


if __name__ == "__main__":
    mode, bootstrap, registry, topic, count = sys.argv[1:6]
    {"write": write, "read": read}[mode](bootstrap, registry, topic, int(count))
