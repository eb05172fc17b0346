// Keeps the InferenceTests target buildable until its first tests land.
