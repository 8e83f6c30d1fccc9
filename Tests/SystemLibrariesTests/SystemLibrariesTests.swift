import CLAPACK
import CSQLite
import Testing

/// Smoke tests that settle the build story for the C libraries later issues use.
@Suite struct SystemLibrariesTests {
    @Test func sqliteOpensAnInMemoryDatabaseAndComputes() throws {
        #expect(sqlite3_libversion_number() >= 3_031_000)
        var db: OpaquePointer?
        #expect(sqlite3_open(":memory:", &db) == SQLITE_OK)
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        #expect(sqlite3_prepare_v2(db, "SELECT 40 + 2", -1, &statement, nil) == SQLITE_OK)
        defer { sqlite3_finalize(statement) }
        #expect(sqlite3_step(statement) == SQLITE_ROW)
        #expect(sqlite3_column_int(statement, 0) == 42)
    }

    @Test func lapackFactorsAndSolvesABandedSystem() {
        // A = tridiag(-1, 2, -1), n = 4, stored as the upper band (kd = 1) in column-major order.
        var n: Int32 = 4, kd: Int32 = 1, nrhs: Int32 = 1, ldab: Int32 = 2, ldb: Int32 = 4, info: Int32 = -1
        var band: [Double] = [0, 2, -1, 2, -1, 2, -1, 2]
        var rhs: [Double] = [1, 0, 0, 1]  // A · [1, 1, 1, 1] = [1, 0, 0, 1]
        var uplo = CChar(UInt8(ascii: "U"))
        dpbsv_(&uplo, &n, &kd, &nrhs, &band, &ldab, &rhs, &ldb, &info, 1)
        #expect(info == 0)
        for x in rhs { #expect(abs(x - 1) < 1e-12) }
    }

    @Test func lapackReportsANonPositiveDefiniteMatrix() {
        var n: Int32 = 2, lda: Int32 = 2, info: Int32 = 0
        var a: [Double] = [1, 2, 2, 1]  // eigenvalues 3 and -1
        var uplo = CChar(UInt8(ascii: "U"))
        dpotrf_(&uplo, &n, &a, &lda, &info, 1)
        #expect(info == 2)
    }
}
