extension OpusTags {
    /// The `Tags` element (RFC 9559): one `Tag` with empty `Targets`, which makes it
    /// apply to the whole file (target type 50, the default), and a `SimpleTag` per comment in
    /// order, `TagName` the key (upper-case, as Matroska's own tag names are) and `TagString`
    /// the value. ffprobe lists them as the file's tags. nil when there is no comment.
    ///
    /// The vendor string has no Matroska field and is left out; the `ENCODER` comment, which
    /// voicemsg writes too, says who encoded the message.
    func matroskaTags() throws -> EBMLElement? {
        guard !entries.isEmpty else { return nil }
        var children = [EBMLElement(MatroskaID.targets, children: [])]
        for entry in entries {
            guard !entry.key.isEmpty else {
                throw AudioPipelineError(.invalidContainer, "a tag has no name, which a Matroska SimpleTag needs")
            }
            // EBML strings may be padded with NULs (RFC 8794), so a NUL would end the text.
            guard !entry.key.utf8.contains(0), !entry.value.utf8.contains(0) else {
                throw AudioPipelineError(.invalidContainer, "tag '\(entry.key)' contains a NUL character, which a Matroska string cannot hold")
            }
            children.append(EBMLElement(MatroskaID.simpleTag, children: [
                EBMLElement(MatroskaID.tagName, string: entry.key),
                EBMLElement(MatroskaID.tagString, string: entry.value),
            ]))
        }
        return EBMLElement(MatroskaID.tags, children: [EBMLElement(MatroskaID.tag, children: children)])
    }
}
