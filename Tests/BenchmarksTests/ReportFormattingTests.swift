import Foundation
import Histogram
import Testing
@testable import Benchmarks

@Suite("Bench report formatting")
struct ReportFormattingTests {
    @Test func tableAlignsColumnsAndRightAlignsFigures() {
        var table = TextTable(["slot", "p50", "p99.9"])
        table.append(["plain copy", "4.4", "13.6"])
        table.append(["LatestValue (seqlock)", "12.0", "812.5"])
        let lines = table.rendered.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        // Every line is as wide as the rule, and the figures end in the same column.
        #expect(Set(lines.map(\.count)).count == 1)
        #expect(lines[1] == String(repeating: "-", count: lines[0].count))
        #expect(lines[2].hasPrefix("plain copy "))
        #expect(lines[2].hasSuffix(" 13.6"))
        #expect(lines[3].hasSuffix("812.5"))
        let p50Column = lines[0].range(of: "p50")!.upperBound
        #expect(lines[2][..<p50Column].hasSuffix("4.4"))
        #expect(lines[3][..<p50Column].hasSuffix("12.0"))
    }

    @Test func tableFillsMissingCells() {
        var table = TextTable(["a", "b", "c"])
        table.append(["x"])
        #expect(table.rows == [["x", "", ""]])
    }

    @Test func figuresAreFixedAndGrouped() {
        #expect(Figure.fixed(3.14159, 2) == "3.14")
        #expect(Figure.fixed(-0.04, 1) == "0.0")
        #expect(Figure.fixed(-2.25, 1) == "-2.3")
        #expect(Figure.fixed(7.05, 2) == "7.05")
        #expect(Figure.fixed(.nan) == "—")
        #expect(Figure.fixed(12.0, 0) == "12")
        #expect(Figure.count(1_234_567) == "1 234 567")
        #expect(Figure.count(999) == "999")
        #expect(Figure.ratio(2.5) == "2.50×")
        #expect(Figure.ratio(33.14) == "33.1×")
    }

    @Test func percentilesComeFromTheHistogram() {
        var h = Distribution.makeHistogram()
        for v in UInt64(1)...1000 { h.record(v * 1000) }    // 1...1000 ns in picoseconds
        let d = Distribution(h, unitsPerNanosecond: 1000)
        #expect(d.count == 1000)
        #expect(abs(d.p50 - 500) <= 1)
        #expect(abs(d.p90 - 900) <= 1)
        #expect(abs(d.p99 - 990) <= 1)
        #expect(abs(d.p999 - 999) <= 1)
        #expect(abs(d.max - 1000) <= 1)
        #expect(abs(d.min - 1) <= 0.01)
        #expect(abs(d.mean - 500.5) <= 1)
        #expect(Distribution(Distribution.makeHistogram(), unitsPerNanosecond: 1) == Distribution(nanoseconds: []))
    }

    @Test func nearestRankPercentilesOfASmallSample() {
        let d = Distribution(nanoseconds: [5, 1, 4, 2, 3, 10, 9, 8, 7, 6])
        #expect(d.count == 10)
        #expect(d.p50 == 5)
        #expect(d.p90 == 9)
        #expect(d.p99 == 10)
        #expect(d.min == 1 && d.max == 10)
        #expect(d.mean == 5.5)
    }

    @Test func progressBarRendersTheFraction() {
        #expect(ProgressBar.render(fraction: 0.5, width: 10, label: "pull") == "[#####     ]  50% pull")
        #expect(ProgressBar.render(fraction: 1, width: 4, label: "x") == "[####] 100% x")
        #expect(ProgressBar.render(fraction: .nan, width: 4, label: "x") == "[    ]   0% x")
    }

    @Test func jsonDocumentHasTheBenchTheMachineAndTheReport() throws {
        let check = TargetCheck(name: "zero torn reads", measured: "0", met: true)
        let json = try BenchDocument(bench: "pull", quick: true, report: [check]).json()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["bench"] as? String == "pull")
        #expect(object["quick"] as? Bool == true)
        let machine = try #require(object["machine"] as? [String: Any])
        #expect((machine["cores"] as? Int ?? 0) > 0)
        #expect(machine["build"] as? String != nil)
        let report = try #require(object["report"] as? [[String: Any]])
        #expect(report.first?["met"] as? Bool == true)
    }
}
