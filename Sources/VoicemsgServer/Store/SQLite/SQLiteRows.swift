import GRDB

// Rows decode through `Decodable`, the records' `CodingKeys` naming the columns: a value of the
// wrong type, a NULL where a value must be, or a status this version does not know is an error
// (`RowDecodingError`, `DecodingError`), never a default and never a crash. The schema is the
// migrations' (see `Store`): every column a record names exists once `migrate()` has run.

extension RunRecord: FetchableRecord {}

extension MessageRecord: FetchableRecord {}
