// VisionTasksCLI module.
