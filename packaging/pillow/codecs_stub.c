/* Stand-ins for libtiff and OpenJPEG, which Pillow's compiled module (_imaging) is linked against.

   The game uses Pillow only to write its clips as animated WebP (villa/presentation/clip.py, villa/app/clips.py):
   it never reads or writes TIFF or JPEG 2000, so neither library ever codes a picture. When _imaging loads,
   Pillow asks each only for its version: those answer with a version of 0, in the form Pillow reads it in
   (libtiff's "LIBTIFF, Version ..."). Every other function answers nothing (0, NULL), so that Pillow would
   refuse to code such a picture, as one built without them does. scripts/release.py compiles this file twice, into
   Pillow's libtiff (-DLIBTIFF, with the symbol versions _imaging asks for) and libopenjp2 (-DOPENJP2), which
   takes libtiff's 0.7 MB, OpenJPEG's 0.6 MB and the zstd and xz libraries only libtiff needed (2 MB); it refuses
   a build whose Pillow asks for a function not here. Every function takes its arguments as the caller passes
   them (they are not read). */

#ifdef LIBTIFF
const char *TIFFGetVersion(void) { return "LIBTIFF, Version 0 (not in this build: the game has no TIFF)"; }
long TIFFCleanup(void) { return 0; }
long TIFFClientOpen(void) { return 0; }
long TIFFClose(void) { return 0; }
long TIFFComputeStrip(void) { return 0; }
long TIFFError(void) { return 0; }
long TIFFFdOpen(void) { return 0; }
long TIFFFieldDataType(void) { return 0; }
long TIFFFieldPassCount(void) { return 0; }
long TIFFFieldWriteCount(void) { return 0; }
long TIFFFindField(void) { return 0; }
long TIFFFlush(void) { return 0; }
long TIFFGetField(void) { return 0; }
long TIFFGetFieldDefaulted(void) { return 0; }
long TIFFIsTiled(void) { return 0; }
long TIFFMergeFieldInfo(void) { return 0; }
long TIFFRGBAImageBegin(void) { return 0; }
long TIFFRGBAImageEnd(void) { return 0; }
long TIFFRGBAImageGet(void) { return 0; }
long TIFFRGBAImageOK(void) { return 0; }
long TIFFReadEncodedStrip(void) { return 0; }
long TIFFReadTile(void) { return 0; }
long TIFFScanlineSize(void) { return 0; }
long TIFFScanlineSize64(void) { return 0; }
long TIFFSetField(void) { return 0; }
long TIFFSetSubDirectory(void) { return 0; }
long TIFFSetWarningHandler(void) { return 0; }
long TIFFSetWarningHandlerExt(void) { return 0; }
long TIFFStripSize(void) { return 0; }
long TIFFTileRowSize(void) { return 0; }
long TIFFTileSize(void) { return 0; }
long TIFFVSetField(void) { return 0; }
long TIFFWriteScanline(void) { return 0; }
long _TIFFmemcpy(void) { return 0; }
#endif

#ifdef OPENJP2
const char *opj_version(void) { return "0 (not in this build: the game has no JPEG 2000)"; }
long opj_create_compress(void) { return 0; }
long opj_create_decompress(void) { return 0; }
long opj_decode_tile_data(void) { return 0; }
long opj_destroy_codec(void) { return 0; }
long opj_encoder_set_extra_options(void) { return 0; }
long opj_end_compress(void) { return 0; }
long opj_end_decompress(void) { return 0; }
long opj_image_create(void) { return 0; }
long opj_image_destroy(void) { return 0; }
long opj_read_header(void) { return 0; }
long opj_read_tile_header(void) { return 0; }
long opj_set_default_decoder_parameters(void) { return 0; }
long opj_set_default_encoder_parameters(void) { return 0; }
long opj_set_error_handler(void) { return 0; }
long opj_set_info_handler(void) { return 0; }
long opj_set_warning_handler(void) { return 0; }
long opj_setup_decoder(void) { return 0; }
long opj_setup_encoder(void) { return 0; }
long opj_start_compress(void) { return 0; }
long opj_stream_create(void) { return 0; }
long opj_stream_destroy(void) { return 0; }
long opj_stream_set_read_function(void) { return 0; }
long opj_stream_set_seek_function(void) { return 0; }
long opj_stream_set_skip_function(void) { return 0; }
long opj_stream_set_user_data(void) { return 0; }
long opj_stream_set_user_data_length(void) { return 0; }
long opj_stream_set_write_function(void) { return 0; }
long opj_write_tile(void) { return 0; }
#endif
