/// An optional that JSON always shows: `null` when there is no value, where the synthesized
/// encoding would leave the key out. `inspect --json` promises its level keys on every file,
/// so a script can tell "too quiet to measure" from "not measured" without guessing.
@propertyWrapper
struct JSONNullable<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
