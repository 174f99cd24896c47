package io.millrace.broker.cluster;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.errors.InvalidTopicException;
import org.junit.Test;

public class TopicNamesTest {

    @Test
    public void acceptsKafkasLegalCharactersUpToTheLengthLimit() {
        assertTrue(TopicNames.isValid("a"));
        assertTrue(TopicNames.isValid("Page_Views-2011.v1"));
        assertTrue(TopicNames.isValid("..."));
        assertTrue(TopicNames.isValid("x".repeat(249)));
    }

    @Test
    public void rejectsEmptyDotsTooLongAndIllegalCharacters() {
        for (String name : new String[] {null, "", ".", "..", "x".repeat(250), "a b", "a/b", "a\\b", "a:b", "é", "a\u0000"}) {
            assertFalse(String.valueOf(name), TopicNames.isValid(name));
        }
    }

    @Test
    public void saysWhichCharacterIsIllegal() {
        InvalidTopicException e = assertThrows(InvalidTopicException.class, () -> TopicNames.validate("ok*no"));
        assertTrue(e.getMessage(), e.getMessage().contains("'*'") && e.getMessage().contains("index 2"));
    }
}
