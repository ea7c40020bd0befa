// The native addon's filesystem sync, for the file store's tests. The addon is loaded by the edge's
// module, which outside server/edge/ only the composition root and test support import.
export { syncFilesystem } from "../../edge/native/kernelSend";
