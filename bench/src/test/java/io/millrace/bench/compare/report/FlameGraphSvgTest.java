package io.millrace.bench.compare.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.bench.profile.CallTree;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

public class FlameGraphSvgTest {

    @Test
    public void widthsAreProportionalToSamplesAndCalleesSitAboveTheirCaller() throws Exception {
        CallTree tree = new CallTree("all");
        tree.add(List.of("main", "io.millrace.log.LogSegment.append"), 3);
        tree.add(List.of("main", "org.apache.kafka.Foo.bar<T>"), 1);

        Document svg = parse(FlameGraphSvg.render(tree, "a & b"));
        List<Element> rects = rects(svg);
        assertEquals("background, root, thread, two frames", 5, rects.size());
        double rootWidth = width(rects.get(1));
        assertEquals(FlameGraphSvg.WIDTH - 2.0 * FlameGraphSvg.MARGIN, rootWidth, 0.01);
        assertEquals(rootWidth, width(rects.get(2)), 0.01);
        assertEquals(0.75 * rootWidth, width(rects.get(3)), 0.01);
        assertEquals(0.25 * rootWidth, width(rects.get(4)), 0.01);
        assertTrue("a callee is drawn above its caller", y(rects.get(3)) < y(rects.get(2)));
        assertEquals("siblings share a row", y(rects.get(3)), y(rects.get(4)), 0.01);
        assertTrue("Millrace frames are green", rects.get(3).getAttribute("fill").startsWith("hsl(120,"));
        assertTrue("Kafka frames are blue", rects.get(4).getAttribute("fill").startsWith("hsl(210,"));
        String titles = svg.getDocumentElement().getTextContent();
        assertTrue(titles.contains("org.apache.kafka.Foo.bar<T> (1 samples, 25.00%)"));
        assertTrue("the title is escaped and kept", titles.contains("a & b"));
    }

    @Test
    public void framesNarrowerThanAThirdOfAPixelAreLeftOutWithTheirCallees() throws Exception {
        CallTree tree = new CallTree("all");
        tree.add(List.of("main", "busy"), 100_000);
        tree.add(List.of("main", "rare", "deeper", "deepest"), 1);

        String svg = FlameGraphSvg.render(tree, "pruned");
        parse(svg);
        assertTrue(svg.contains(">busy<"));
        assertFalse(svg.contains("rare"));
        assertFalse("the pruned branch adds no rows", svg.contains("deepest"));
    }

    @Test
    public void anEmptyTreeIsStillADocument() throws Exception {
        Document svg = parse(FlameGraphSvg.render(new CallTree("all"), "nothing sampled"));
        assertTrue(svg.getDocumentElement().getTextContent().contains("0 samples"));
    }

    @Test
    public void kernelFramesHaveAColourOfTheirOwn() {
        String kernel = FlameGraphSvg.colour("[k] copy_folio_from_iter_atomic", 5);
        assertTrue(kernel, kernel.startsWith("hsl(45,"));
        assertTrue(FlameGraphSvg.colour("io.millrace.broker.log.LogSegment.append", 5).startsWith("hsl(120,"));
        assertTrue("other native frames stay red", FlameGraphSvg.colour("JavaCalls::call_helper", 5).startsWith("hsl(4,"));
    }

    @Test
    public void labelsAreShortenedToTheirWidth() {
        assertEquals("LogSegment.append", FlameGraphSvg.shortName("io.millrace.broker.log.LogSegment.append"));
        assertEquals("main", FlameGraphSvg.shortName("main"));
        assertEquals("LogSegment.append", FlameGraphSvg.fit("LogSegment.append", 200));
        assertEquals("LogSegm..", FlameGraphSvg.fit("LogSegment.append", 6 + 9 * FlameGraphSvg.CHAR_WIDTH));
        assertEquals("", FlameGraphSvg.fit("LogSegment.append", 20));
    }

    private static Document parse(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<Element> rects(Document svg) {
        NodeList nodes = svg.getElementsByTagName("rect");
        List<Element> rects = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            rects.add((Element) nodes.item(i));
        }
        return rects;
    }

    private static double width(Element rect) {
        return Double.parseDouble(rect.getAttribute("width"));
    }

    private static double y(Element rect) {
        return Double.parseDouble(rect.getAttribute("y"));
    }
}
