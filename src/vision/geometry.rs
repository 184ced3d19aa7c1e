//! Where a board's cells sit in a picture: one formula from cell to image pixel for every game,
//! and from there to the screen points the mouse is driven in (`Screen::to_screen`).

use super::lattice::Axis;
use crate::rect::Rect;
use crate::screen::PixelPoint;
use serde::ser::{Serialize, SerializeStruct, Serializer};

/// A board's lattice in image pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry {
    /// Centre of cell (row 0, col 0).
    pub origin: PixelPoint,
    /// Distance between neighbouring cell centres across (x) and down (y). Boards are drawn
    /// square; a rescaled capture can make the two differ by a fraction of a pixel.
    pub pitch_x: f64,
    pub pitch_y: f64,
    /// The board area: every planned point must fall inside it.
    pub board: Rect<f64>,
}

impl Geometry {
    /// A lattice of square cells.
    pub fn square(origin: PixelPoint, pitch: f64, board: Rect<f64>) -> Geometry {
        Geometry {
            origin,
            pitch_x: pitch,
            pitch_y: pitch,
            board,
        }
    }

    /// The cells between the lines of two axes: the board is exactly those cells.
    pub fn from_axes(x: Axis, y: Axis) -> Geometry {
        Geometry {
            origin: PixelPoint {
                x: x.start + x.pitch / 2.0,
                y: y.start + y.pitch / 2.0,
            },
            pitch_x: x.pitch,
            pitch_y: y.pitch,
            board: Rect::new(
                x.start,
                y.start,
                x.pitch * x.cells as f64,
                y.pitch * y.cells as f64,
            ),
        }
    }

    /// The mean cell pitch.
    pub fn pitch(&self) -> f64 {
        (self.pitch_x + self.pitch_y) / 2.0
    }

    pub fn centre(&self, row: usize, col: usize) -> PixelPoint {
        PixelPoint {
            x: self.origin.x + col as f64 * self.pitch_x,
            y: self.origin.y + row as f64 * self.pitch_y,
        }
    }

    /// The cell's square in image pixels.
    pub fn cell(&self, row: usize, col: usize) -> Rect<f64> {
        let c = self.centre(row, col);
        Rect::new(
            c.x - self.pitch_x / 2.0,
            c.y - self.pitch_y / 2.0,
            self.pitch_x,
            self.pitch_y,
        )
    }
}

/// As every game's JSON gives it: `{"origin": [x, y], "pitch": p, "board": [x, y, w, h]}`.
impl Serialize for Geometry {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Geometry", 3)?;
        st.serialize_field("origin", &[self.origin.x, self.origin.y])?;
        st.serialize_field("pitch", &self.pitch())?;
        st.serialize_field("board", &self.board.to_array())?;
        st.end()
    }
}

/// Read back from the same JSON (a square lattice: one pitch both ways), as fixtures that
/// keep a reading's geometry store it.
impl<'de> serde::Deserialize<'de> for Geometry {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        struct Json {
            origin: [f64; 2],
            pitch: f64,
            board: [f64; 4],
        }
        let j = Json::deserialize(d)?;
        let [x, y, w, h] = j.board;
        Ok(Geometry::square(
            PixelPoint {
                x: j.origin[0],
                y: j.origin[1],
            },
            j.pitch,
            Rect::new(x, y, w, h),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_reads_back_what_it_wrote() {
        let g = Geometry::square(
            PixelPoint { x: 30.5, y: 50.0 },
            20.25,
            Rect::new(20.0, 40.0, 60.0, 80.0),
        );
        let back: Geometry = serde_json::from_value(serde_json::to_value(g).unwrap()).unwrap();
        assert_eq!(back.origin, g.origin);
        assert_eq!((back.pitch_x, back.pitch_y), (20.25, 20.25));
        assert_eq!(back.board, g.board);
    }

    #[test]
    fn cells_follow_one_formula() {
        let g = Geometry::square(
            PixelPoint { x: 30.0, y: 50.0 },
            20.0,
            Rect::new(20.0, 40.0, 60.0, 80.0),
        );
        assert_eq!(g.centre(2, 1), PixelPoint { x: 50.0, y: 90.0 });
        assert_eq!(g.cell(0, 0), Rect::new(20.0, 40.0, 20.0, 20.0));
        assert_eq!(g.pitch(), 20.0);
    }

    #[test]
    fn axes_give_the_cells_between_their_lines() {
        let x = Axis {
            start: 10.0,
            pitch: 30.0,
            cells: 4,
        };
        let y = Axis {
            start: 5.0,
            pitch: 31.0,
            cells: 2,
        };
        let g = Geometry::from_axes(x, y);
        assert_eq!(g.origin, PixelPoint { x: 25.0, y: 20.5 });
        assert_eq!(g.board, Rect::new(10.0, 5.0, 120.0, 62.0));
        assert_eq!(g.centre(1, 3), PixelPoint { x: 115.0, y: 51.5 });
        assert_eq!(g.pitch(), 30.5);
    }

    #[test]
    fn serialises_as_the_json_documents() {
        let g = Geometry::square(
            PixelPoint { x: 1.5, y: 2.0 },
            3.0,
            Rect::new(0.0, 0.5, 9.0, 9.0),
        );
        assert_eq!(
            serde_json::to_string(&g).unwrap(),
            r#"{"origin":[1.5,2.0],"pitch":3.0,"board":[0.0,0.5,9.0,9.0]}"#
        );
    }
}
