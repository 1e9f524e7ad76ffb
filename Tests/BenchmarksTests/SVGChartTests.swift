import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import Benchmarks

@Suite("SVG charts")
struct SVGChartTests {
    /// Collects the series and markers a chart document names, failing on malformed XML.
    final class Collector: NSObject, XMLParserDelegate {
        var series: [String] = []
        var markers: [String] = []
        var polylinePoints: [Int] = []
        var root: String?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if root == nil { root = name }
            if name == "g", attributes["class"] == "series", let n = attributes["data-name"] { series.append(n) }
            if name == "g", attributes["class"] == "marker", let n = attributes["data-name"] { markers.append(n) }
            if name == "polyline", let p = attributes["points"] { polylinePoints.append(p.split(separator: " ").count) }
        }
    }

    func parse(_ svg: String) throws -> Collector {
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = Collector()
        parser.delegate = collector
        let ok = parser.parse()
        #expect(ok, "XML error: \(parser.parserError.map { "\($0)" } ?? "?")")
        return collector
    }

    @Test func lineChartIsValidXMLWithEverySeries() throws {
        var chart = SVGChart(title: "Error <over> time & more", xLabel: "time, s", yLabel: "degrees")
        chart.series.append(.init(name: "6-axis fusion", points: [(0, 1), (1, 2), (2, 1.5)]))
        chart.series.append(.init(name: "accelerometer-only \"raw\"", points: [(0, 4), (1, 8), (2, 3)]))
        chart.markers.append(.init(x: 1.5, label: "knock"))
        let doc = try parse(chart.svg())
        #expect(doc.root == "svg")
        #expect(doc.series == ["6-axis fusion", "accelerometer-only \"raw\""])
        #expect(doc.markers == ["knock"])
        #expect(doc.polylinePoints == [3, 3])
    }

    @Test func histogramStepsOnALogAxisFromAnHDRHistogram() throws {
        var h = Distribution.makeHistogram()
        for v in [10, 11, 12, 100, 1000] as [UInt64] { h.record(v * 1000) }
        let points = SVGChart.histogramPoints(h, unitsPerNanosecond: 1000)
        // Percentages add up to all values, and the bins span the recorded range.
        #expect(abs(points.map(\.1).reduce(0, +) - 100) < 1e-9)
        #expect(points.first!.0 <= 10 && points.last!.0 >= 1000)
        var chart = SVGChart(title: "cost", xLabel: "ns", yLabel: "%", xScale: .log10)
        chart.series.append(.init(name: "LatestValue", points: points, style: .steps))
        let doc = try parse(chart.svg())
        #expect(doc.series == ["LatestValue"])
        #expect(doc.polylinePoints[0] >= 2 * points.count)
    }

    @Test func longSeriesAreReducedKeepingSpikes() throws {
        var chart = SVGChart(title: "t", xLabel: "x", yLabel: "y")
        chart.maxPointsPerSeries = 100
        var points = (0..<10_000).map { (Double($0), 1.0) }
        points[5_000].1 = 50
        chart.series.append(.init(name: "s", points: points))
        let svg = chart.svg()
        let doc = try parse(svg)
        #expect(doc.polylinePoints[0] <= 100)
        // The spike sets the y range: the axis reaches at least 50.
        #expect(svg.contains(">50<") || svg.contains(">60<"))
    }

    @Test func emptyChartIsStillADocument() throws {
        let doc = try parse(SVGChart(title: "nothing", xLabel: "x", yLabel: "y").svg())
        #expect(doc.root == "svg")
        #expect(doc.series.isEmpty)
    }
}
