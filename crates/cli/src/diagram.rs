//! Board diagrams (filled in by the render work).
