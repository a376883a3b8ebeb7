/* checksum.c — the per-function checksum of the metadata, the plugin's own implementation
 * (gcc-plugin/roi-checksum.c), compiled here as C: meta.c recomputes it from each record. */
#include "../../gcc-plugin/roi-checksum.c"
