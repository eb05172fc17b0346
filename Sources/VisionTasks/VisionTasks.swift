// VisionTasks module.
