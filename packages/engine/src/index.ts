// The mirror engine arrives with its own issue; the package exists now so the layout and the
// dependency direction (apps → packages, engine imports no server code) are fixed from day one.
export const ENGINE_NAME = 'mirror-engine';
