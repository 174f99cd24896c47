package io.millrace.audit.report;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/** The report's HTML page parsed with the JDK's XML parser, which fails on anything not well-formed. */
public final class ParsedPage {

    private final Document document;

    private ParsedPage(Document document) {
        this.document = document;
    }

    public static ParsedPage parse(String html) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        DocumentBuilder builder = factory.newDocumentBuilder();
        builder.setErrorHandler(null);
        return new ParsedPage(builder.parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8))));
    }

    /** Every {@code tag} element whose class attribute has {@code cssClass} among its classes. */
    public List<Element> all(String tag, String cssClass) {
        return within(document.getDocumentElement(), tag, cssClass);
    }

    public static List<Element> within(Element parent, String tag, String cssClass) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getElementsByTagName(tag);
        for (int i = 0; i < nodes.getLength(); i++) {
            Element e = (Element) nodes.item(i);
            if (cssClass == null || Arrays.asList(e.getAttribute("class").split(" ")).contains(cssClass)) {
                found.add(e);
            }
        }
        return found;
    }

    /** The one {@code tag} element of class {@code cssClass} under {@code parent}. */
    public static Element one(Element parent, String tag, String cssClass) {
        List<Element> found = within(parent, tag, cssClass);
        if (found.size() != 1) {
            throw new AssertionError(found.size() + " <" + tag + " class=" + cssClass + "> where one was expected");
        }
        return found.get(0);
    }

    /** The text of the one {@code td} of class {@code cssClass} in {@code row}. */
    public static String cell(Element row, String cssClass) {
        return one(row, "td", cssClass).getTextContent();
    }

    /** A number as the page shows it, with thousands separators. */
    public static long number(Element row, String cssClass) {
        return Long.parseLong(cell(row, cssClass).replace(",", ""));
    }

    /** The nearest ancestor of {@code e} that is a {@code tag} element. */
    public static Element ancestor(Element e, String tag) {
        Node n = e.getParentNode();
        while (n != null && !(n instanceof Element && n.getNodeName().equals(tag))) {
            n = n.getParentNode();
        }
        if (n == null) {
            throw new AssertionError("No <" + tag + "> around " + e.getNodeName());
        }
        return (Element) n;
    }

    public Element byId(String id) {
        for (Element e : within(document.getDocumentElement(), "*", null)) {
            if (id.equals(e.getAttribute("id"))) {
                return e;
            }
        }
        throw new AssertionError("No element with id " + id);
    }

    public String text() {
        return document.getDocumentElement().getTextContent();
    }
}
