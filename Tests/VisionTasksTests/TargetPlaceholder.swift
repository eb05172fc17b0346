// Keeps the VisionTasksTests target buildable until its first tests land.
