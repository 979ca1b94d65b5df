//! The board section: a square grid of floor, walls, doors and obstacles ("Locations",
//! "Board Section"), with the geometry the rules need: Danger Zones by Reach, movement steps
//! and Line of Sight.

use crate::data::Reach;

/// Columns of the board section.
pub const WIDTH: usize = 10;
/// Rows of the board section.
pub const HEIGHT: usize = 8;

/// A square of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct Cell {
    /// Row, from the top.
    pub y: u8,
    /// Column, from the left.
    pub x: u8,
}

impl Cell {
    /// The square at column `x`, row `y`.
    pub fn new(x: u8, y: u8) -> Cell {
        Cell { y, x }
    }

    /// Chebyshev distance (king moves).
    pub fn distance(self, other: Cell) -> u8 {
        self.x.abs_diff(other.x).max(self.y.abs_diff(other.y))
    }

    /// Whether `other` is one of the eight squares around this one.
    pub fn adjacent(self, other: Cell) -> bool {
        self.distance(other) == 1
    }
}

/// What a square holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Terrain {
    /// Open floor.
    Floor,
    /// A wall: blocks movement and sight.
    Wall,
    /// A door: blocks movement and sight until opened (an Interact action).
    Door {
        /// Whether it stands open.
        open: bool,
    },
    /// An obstacle (rubble, a pillar): blocks movement and sight.
    Obstacle,
}

/// The board section's squares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [Terrain; WIDTH * HEIGHT],
}

impl Board {
    /// Parse a map of `HEIGHT` rows of `WIDTH` characters (`#` wall, `+` door, `=` stuck door,
    /// `o` obstacle, anything else floor), with the squares of every other character (start
    /// markers) and of the stuck doors (marked `=`; a closed door on the board).
    pub fn parse(rows: &[&str]) -> Result<(Board, Vec<(char, Cell)>), String> {
        if rows.len() != HEIGHT {
            return Err(format!("a map needs {HEIGHT} rows, got {}", rows.len()));
        }
        let mut squares = [Terrain::Floor; WIDTH * HEIGHT];
        let mut marks = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            if row.chars().count() != WIDTH {
                return Err(format!("map row {y} needs {WIDTH} squares: `{row}`"));
            }
            for (x, c) in row.chars().enumerate() {
                squares[y * WIDTH + x] = match c {
                    '#' => Terrain::Wall,
                    '+' => Terrain::Door { open: false },
                    '=' => {
                        marks.push(('=', Cell::new(x as u8, y as u8)));
                        Terrain::Door { open: false }
                    }
                    'o' => Terrain::Obstacle,
                    '.' => Terrain::Floor,
                    other => {
                        marks.push((other, Cell::new(x as u8, y as u8)));
                        Terrain::Floor
                    }
                };
            }
        }
        Ok((Board { squares }, marks))
    }

    /// The terrain at `c` (a wall off the board).
    pub fn at(&self, c: Cell) -> Terrain {
        if (c.x as usize) < WIDTH && (c.y as usize) < HEIGHT {
            self.squares[c.y as usize * WIDTH + c.x as usize]
        } else {
            Terrain::Wall
        }
    }

    /// Open the door at `c`; an error if there is no closed door.
    pub fn open_door(&mut self, c: Cell) -> Result<(), String> {
        match self.at(c) {
            Terrain::Door { open: false } => {
                self.squares[c.y as usize * WIDTH + c.x as usize] = Terrain::Door { open: true };
                Ok(())
            }
            _ => Err(format!("no closed door at {c:?}")),
        }
    }

    /// Whether a model may stand on or cross `c` (floor or an open door).
    pub fn passable(&self, c: Cell) -> bool {
        matches!(self.at(c), Terrain::Floor | Terrain::Door { open: true })
    }

    /// The squares one king move from `c` that a model may step to: passable, and for a
    /// diagonal step both squares beside it passable too (no cutting a wall's corner).
    pub fn steps(&self, c: Cell) -> Vec<Cell> {
        let mut out = Vec::with_capacity(8);
        for dy in -1i16..=1 {
            for dx in -1i16..=1 {
                let (x, y) = (c.x as i16 + dx, c.y as i16 + dy);
                if (dx, dy) == (0, 0) || x < 0 || y < 0 {
                    continue;
                }
                let to = Cell::new(x as u8, y as u8);
                let side_a = Cell::new(x as u8, c.y);
                let side_b = Cell::new(c.x, y as u8);
                if self.passable(to)
                    && (dx == 0 || dy == 0 || (self.passable(side_a) && self.passable(side_b)))
                {
                    out.push(to);
                }
            }
        }
        out
    }

    /// The closed doors on the eight squares around `c`.
    pub fn steps_to_doors(&self, c: Cell) -> Vec<Cell> {
        let mut out = Vec::new();
        for y in c.y.saturating_sub(1)..=c.y + 1 {
            for x in c.x.saturating_sub(1)..=c.x + 1 {
                let d = Cell::new(x, y);
                if d != c && self.at(d) == (Terrain::Door { open: false }) {
                    out.push(d);
                }
            }
        }
        out
    }

    /// Whether `to` lies in the Danger Zone of a weapon of `reach` held at `from`: Reach M the
    /// ring of adjacent squares, P the four orthogonal ones, R the two rings around.
    pub fn in_zone(reach: Reach, from: Cell, to: Cell) -> bool {
        let (dx, dy) = (from.x.abs_diff(to.x), from.y.abs_diff(to.y));
        match reach {
            Reach::M => from.distance(to) == 1,
            Reach::P => dx + dy == 1,
            Reach::R => (1..=2).contains(&from.distance(to)),
        }
    }

    /// Line of Sight from the centre of `from` to any point of `to` (its centre or a point near
    /// a corner), crossing no wall, obstacle, closed door or square `occupied` says holds a
    /// model (`from` and `to` themselves excepted).
    pub fn line_of_sight(&self, from: Cell, to: Cell, occupied: impl Fn(Cell) -> bool) -> bool {
        let start = (from.x as f64 + 0.5, from.y as f64 + 0.5);
        let targets = [(0.5, 0.5), (0.1, 0.1), (0.9, 0.1), (0.1, 0.9), (0.9, 0.9)];
        targets.iter().any(|&(ox, oy)| {
            let end = (to.x as f64 + ox, to.y as f64 + oy);
            let steps = 64;
            // The points lie at non-negative coordinates, so truncation is the floor; a
            // square met again by the next point needs no second look.
            let mut last = from;
            (1..steps).all(|i| {
                let t = i as f64 / steps as f64;
                let (px, py) = (start.0 + (end.0 - start.0) * t, start.1 + (end.1 - start.1) * t);
                let c = Cell::new(px as u8, py as u8);
                let clear = c == last || c == to || (self.passable(c) && !occupied(c));
                last = c;
                clear
            })
        })
    }
}
