"""The plain shapes the renderers pass around (imports nothing: every module of images may use them)."""

Rect = tuple[int, int, int, int]  # a region laid out in whole pixels: x0, y0, x1, y1
Box = tuple[float, float, float, float]  # where a text's ink went (Pillow's textbbox), x0, y0, x1, y1
Colour = tuple[int, ...]  # RGB or RGBA
BoxSet = tuple[str, Box, tuple[Box, ...]]  # a named region and the boxes of the texts drawn in it
Label = tuple[str, str, str, Box, float]  # region name, role, text, ink box, baseline (Rendered.labels)
