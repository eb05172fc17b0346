// PoseDetection module.
