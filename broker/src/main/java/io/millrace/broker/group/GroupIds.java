package io.millrace.broker.group;

/**
 * Which group ids the coordinator accepts: a group id names a ZooKeeper node in the offset
 * registry, so it must be a single path segment.
 */
final class GroupIds {

    private static final int MAX_LENGTH = 249;

    private GroupIds() {
    }

    static boolean isValid(String groupId) {
        return groupId != null && !groupId.isEmpty() && groupId.length() <= MAX_LENGTH && groupId.indexOf('/') < 0
            && !groupId.equals(".") && !groupId.equals("..") && groupId.chars().noneMatch(c -> c < 0x20 || c == 0x7f);
    }
}
