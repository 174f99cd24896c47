"""librdkafka's admin client (confluent-kafka's AdminClient, and every librdkafka binding's) against
Millrace brokers: topics, partitions, configurations, offsets, records, leaders and group offsets,
each call checked against what it should have changed; and ACLs, which a broker without an
authorizer refuses with SECURITY_DISABLED.

Usage: admin_calls.py BOOTSTRAP TOPIC
Prints "admin calls: ok" when every check holds; exits non-zero with a reason on stderr otherwise.
"""
import sys

from confluent_kafka import (ConsumerGroupTopicPartitions, ElectionType, KafkaError, KafkaException, Producer,
                             TopicCollection, TopicPartition)
from confluent_kafka.admin import (AclBinding, AclBindingFilter, AclOperation, AclPermissionType, AdminClient,
                                   AlterConfigOpType, ConfigEntry, ConfigResource, NewPartitions, NewTopic,
                                   OffsetSpec, ResourcePatternType, ResourceType)


def fail(reason):
    print(reason, file=sys.stderr)
    sys.exit(1)


def check(condition, reason):
    if not condition:
        fail(reason)


def done(futures):
    """Waits for a call's futures: a dict of them, or one."""
    if isinstance(futures, dict):
        return {key: future.result(30) for key, future in futures.items()}
    return futures.result(30)


def partitions_of(admin, topic):
    return done(admin.describe_topics(TopicCollection([topic])))[topic].partitions


def offset(admin, topic, partition, spec):
    tp = TopicPartition(topic, partition)
    return done(admin.list_offsets({tp: spec}))[tp].offset


def error_of(future):
    """The KafkaError a future failed with, or None."""
    try:
        future.result(30)
        return None
    except KafkaException as e:
        return e.args[0]


def check_acls_refused(admin, topic):
    """As from a Kafka broker with no authorizer: nothing described, each creation and filter refused."""
    any_acl = AclBindingFilter(ResourceType.ANY, None, ResourcePatternType.ANY, None, None, AclOperation.ANY,
                               AclPermissionType.ANY)
    # librdkafka reads the top-level SECURITY_DISABLED of DescribeAcls as an empty answer
    check(done(admin.describe_acls(any_acl)) == [], "no ACL can be described")
    binding = AclBinding(ResourceType.TOPIC, topic, ResourcePatternType.LITERAL, "User:alice", "*",
                         AclOperation.READ, AclPermissionType.ALLOW)
    for name, futures in (("create_acls", admin.create_acls([binding])), ("delete_acls", admin.delete_acls([any_acl]))):
        errors = [error_of(f) for f in futures.values()]
        check(len(errors) == 1 and errors[0] is not None and errors[0].code() == KafkaError.SECURITY_DISABLED,
              "%s should be refused with SECURITY_DISABLED: %s" % (name, errors))


def main(bootstrap, topic):
    admin = AdminClient({"bootstrap.servers": bootstrap})

    done(admin.create_topics([NewTopic(topic, 3, 2)]))
    described = partitions_of(admin, topic)
    check(len(described) == 3, "3 partitions expected: %s" % described)
    check(all(len(p.replicas) == 2 and p.leader is not None for p in described), "2 replicas and a leader each")
    cluster = done(admin.describe_cluster())
    check(len(cluster.nodes) == 2 and cluster.controller is not None, "2 brokers and a controller expected")

    producer = Producer({"bootstrap.servers": bootstrap})
    for i in range(30):
        producer.produce(topic, value=b"record-%d" % i, partition=i % 3)
    check(producer.flush(30) == 0, "records not delivered")
    check(offset(admin, topic, 0, OffsetSpec.latest()) == 10, "10 records in partition 0 expected")

    resource = ConfigResource(ResourceType.TOPIC, topic, incremental_configs=[
        ConfigEntry("retention.ms", "3600000", incremental_operation=AlterConfigOpType.SET)])
    done(admin.incremental_alter_configs([resource]))
    configs = done(admin.describe_configs([ConfigResource(ResourceType.TOPIC, topic)]))
    entries = list(configs.values())[0]
    check(entries["retention.ms"].value == "3600000", "retention.ms not altered: %s" % entries["retention.ms"])

    done(admin.create_partitions([NewPartitions(topic, 4)]))
    check(len(partitions_of(admin, topic)) == 4, "4 partitions expected after create_partitions")

    deleted = done(admin.delete_records([TopicPartition(topic, 0, 2)]))
    check(list(deleted.values())[0].low_watermark == 2, "low watermark 2 expected: %s" % deleted)
    check(offset(admin, topic, 0, OffsetSpec.earliest()) == 2, "earliest offset 2 expected after delete_records")

    elected = done(admin.elect_leaders(ElectionType.PREFERRED, [TopicPartition(topic, 0)]))
    error = list(elected.values())[0]
    check(error is not None and error.code() == KafkaError.ELECTION_NOT_NEEDED,
          "a partition led by its preferred replica needs no election: %s" % elected)

    group = topic + "-offsets"
    done(admin.alter_consumer_group_offsets([ConsumerGroupTopicPartitions(group, [TopicPartition(topic, 1, 5)])]))
    listed = done(admin.list_consumer_group_offsets([ConsumerGroupTopicPartitions(group)]))[group]
    check([(tp.partition, tp.offset) for tp in listed.topic_partitions] == [(1, 5)],
          "offset 5 of partition 1 expected: %s" % listed.topic_partitions)
    done(admin.delete_consumer_groups([group]))

    check_acls_refused(admin, topic)
    done(admin.delete_topics([topic]))
    print("admin calls: ok")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
