-- The rectangle of the element a Pinpoints visitor pointed at (docs/pinpoints.md, "The HTTP
-- API of the widget"): in CSS pixels of the viewport when the screenshot was taken, which
-- is the screenshot's own frame; x and y may be negative for an element partly scrolled
-- out of view. All four are NULL when no element was picked or the widget sent no box.
ALTER TABLE requests ADD COLUMN element_x INTEGER;
ALTER TABLE requests ADD COLUMN element_y INTEGER;
ALTER TABLE requests ADD COLUMN element_width INTEGER;
ALTER TABLE requests ADD COLUMN element_height INTEGER;
