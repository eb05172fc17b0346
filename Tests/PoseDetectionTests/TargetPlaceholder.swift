// Keeps the PoseDetectionTests target buildable until its first tests land.
