// Imaging module.
