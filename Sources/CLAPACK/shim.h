// CLAPACK: the reference LAPACK from Debian (liblapack-dev), which ships no C header; on Apple platforms the
// same Fortran symbols come from the Accelerate framework (Package.swift chooses the library to link).
// The routines TrueTrack calls are declared here with their Fortran (LP64) signatures:
// INTEGER is int32_t, arrays are column-major, every argument is passed by pointer, and a
// CHARACTER argument takes a hidden trailing length (size_t) after the listed arguments.
#ifndef TRUETRACK_CLAPACK_SHIM_H
#define TRUETRACK_CLAPACK_SHIM_H
#include <stddef.h>
#include <stdint.h>

/// Cholesky factorisation of a symmetric positive-definite band matrix (LAPACK DPBTRF).
void dpbtrf_(const char *uplo, const int32_t *n, const int32_t *kd, double *ab,
             const int32_t *ldab, int32_t *info, size_t uplo_len);

/// Solves A X = B for a symmetric positive-definite band matrix A (LAPACK DPBSV).
void dpbsv_(const char *uplo, const int32_t *n, const int32_t *kd, const int32_t *nrhs,
            double *ab, const int32_t *ldab, double *b, const int32_t *ldb, int32_t *info,
            size_t uplo_len);

/// Solves A X = B with the factor from DPBTRF (LAPACK DPBTRS).
void dpbtrs_(const char *uplo, const int32_t *n, const int32_t *kd, const int32_t *nrhs,
             const double *ab, const int32_t *ldab, double *b, const int32_t *ldb,
             int32_t *info, size_t uplo_len);

/// Solves a triangular band system A X = B or Aᵀ X = B (LAPACK DTBTRS).
void dtbtrs_(const char *uplo, const char *trans, const char *diag, const int32_t *n,
             const int32_t *kd, const int32_t *nrhs, const double *ab, const int32_t *ldab,
             double *b, const int32_t *ldb, int32_t *info, size_t uplo_len, size_t trans_len,
             size_t diag_len);

/// Cholesky factorisation of a dense symmetric positive-definite matrix (LAPACK DPOTRF).
void dpotrf_(const char *uplo, const int32_t *n, double *a, const int32_t *lda, int32_t *info,
             size_t uplo_len);

#endif
