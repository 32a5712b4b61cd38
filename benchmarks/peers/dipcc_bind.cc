// dipsolve's own binding of dipcc's Game (the torch-dependent encoders left out), for the benchmarks.
// Compiled by build_dipcc.sh, which replaces DIPCC_SOURCE by the dipcc/dipcc folder of Meta's source.
// Written for dipsolve (MIT); it uses only dipcc's public Game class and one of its pybind helpers.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include "DIPCC_SOURCE/cc/game.h"
#include "DIPCC_SOURCE/pybind/py_game_get_units.h"
namespace py = pybind11;
using namespace dipcc;
PYBIND11_MODULE(pydipcc, m) {
  py::class_<Game>(m, "Game")
      .def(py::init<int, bool>(), py::arg("draw_on_stalemate_years") = -1, py::arg("is_full_press") = true)
      .def(py::init<const Game &>())
      .def("process", &Game::process)
      .def("set_orders", &Game::set_orders)
      .def("clear_orders", &Game::clear_orders)
      .def("get_state", &Game::py_get_state, py::return_value_policy::move)
      .def("get_all_possible_orders", &Game::py_get_all_possible_orders)
      .def("to_json", &Game::to_json)
      .def_static("from_json", &Game::from_json)
      .def("get_units", &py_game_get_units, py::return_value_policy::move)
      .def_property_readonly("current_short_phase", &Game::get_phase_short);
}
