import Foundation

/// `--json` output: one JSON object on one line, keys sorted so the text is stable across runs.
/// Values: String, Int, Double, Bool, nil (written as null, so every key is always there),
/// arrays and objects of them. Non-finite numbers become null (JSON has none).
///
///     printJSON(["samples": 120, "out": "a.csv", "reports": nil])   // {"out":"a.csv","reports":null,"samples":120}
func printJSON(_ object: [String: Any?]) {
    print(jsonText(object))
}

func jsonText(_ object: [String: Any?]) -> String {
    let data = try! JSONSerialization.data(withJSONObject: jsonValue(object), options: [.sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
}

private func jsonValue(_ value: Any?) -> Any {
    switch value {
    case nil: return NSNull()
    case let d as Double: return d.isFinite ? d : NSNull()
    case let dict as [String: Any?]: return dict.mapValues(jsonValue)
    case let dict as [String: Any]: return dict.mapValues { jsonValue($0) }
    case let array as [Any?]: return array.map(jsonValue)
    case let array as [Any]: return array.map { jsonValue($0) }
    case let some?: return some
    }
}
