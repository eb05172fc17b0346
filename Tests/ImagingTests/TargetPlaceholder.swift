// Keeps the ImagingTests target buildable until its first tests land.
